"""Place names a conversation often says without a cue ("been to Paris?!", "Italy was
amazing"): countries, US states and Canadian provinces, regions and the larger cities, in
their canonical form (`text.entities.canonical`). A name here is a location whatever the words
around it; one not here is a location only by its cue ("in Woodhaven", "Fort Wayne" by
neither: a person, the likelier guess)."""

from __future__ import annotations


def _names(text: str) -> frozenset[str]:
    return frozenset(name.strip() for name in text.split(",") if name.strip())


COUNTRIES = _names(
    """afghanistan, albania, algeria, andorra, angola, argentina, armenia, australia, austria,
    azerbaijan, bahamas, bahrain, bangladesh, barbados, belarus, belgium, belize, benin, bhutan,
    bolivia, bosnia, botswana, brazil, brunei, bulgaria, burkina faso, burundi, cambodia,
    cameroon, canada, cape verde, chad, chile, china, colombia, congo, costa rica, croatia, cuba,
    cyprus, czech republic, czechia, denmark, djibouti, dominica, dominican republic, ecuador,
    egypt, el salvador, england, eritrea, estonia, eswatini, ethiopia, fiji, finland, france,
    gabon, gambia, georgia, germany, ghana, greece, grenada, guatemala, guinea, guyana, haiti,
    honduras, hungary, iceland, india, indonesia, iran, iraq, ireland, israel, italy, jamaica,
    japan, jordan, kazakhstan, kenya, korea, south korea, north korea, kosovo, kuwait, laos,
    latvia, lebanon, lesotho, liberia, libya, liechtenstein, lithuania, luxembourg, madagascar,
    malawi, malaysia, maldives, mali, malta, mauritania, mauritius, mexico, moldova, monaco,
    mongolia, montenegro, morocco, mozambique, myanmar, namibia, nepal, netherlands, holland,
    new zealand, nicaragua, niger, nigeria, norway, oman, pakistan, panama, paraguay, peru,
    philippines, poland, portugal, qatar, romania, russia, rwanda, samoa, saudi arabia,
    scotland, senegal, serbia, seychelles, sierra leone, singapore, slovakia, slovenia,
    somalia, south africa, spain, sri lanka, sudan, suriname, sweden, switzerland, syria,
    taiwan, tajikistan, tanzania, thailand, togo, tonga, trinidad, tunisia, turkey, turkmenistan,
    uganda, ukraine, united arab emirates, uae, united kingdom, uk, great britain, britain,
    united states, usa, us, america, uruguay, uzbekistan, vanuatu, venezuela, vietnam, wales,
    yemen, zambia, zimbabwe, puerto rico, greenland, hong kong, tibet, bali, hawaii"""
)
REGIONS = _names(
    """africa, asia, europe, antarctica, oceania, north america, south america, latin america,
    central america, caribbean, middle east, scandinavia, balkans, mediterranean, siberia,
    east coast, west coast, midwest, pacific northwest, new england, the south, deep south,
    southeast asia, east asia, patagonia, sahara, alps, himalayas, rockies, amazon, outback,
    silicon valley, bay area, tuscany, provence, normandy, bavaria, andalusia, catalonia"""
)
STATES = _names(
    """alabama, alaska, arizona, arkansas, california, colorado, connecticut, delaware, florida,
    idaho, illinois, indiana, iowa, kansas, kentucky, louisiana, maine, maryland,
    massachusetts, michigan, minnesota, mississippi, missouri, montana, nebraska, nevada,
    new hampshire, new jersey, new mexico, new york, north carolina, north dakota, ohio,
    oklahoma, oregon, pennsylvania, rhode island, south carolina, south dakota, tennessee,
    texas, utah, vermont, virginia, washington, west virginia, wisconsin, wyoming, ontario,
    quebec, british columbia, alberta, manitoba, nova scotia"""
)
CITIES = _names(
    """paris, london, rome, berlin, madrid, barcelona, lisbon, porto, amsterdam, brussels,
    vienna, prague, budapest, warsaw, krakow, copenhagen, stockholm, oslo, helsinki, dublin,
    edinburgh, glasgow, manchester, liverpool, oxford, cambridge, milan, venice, florence,
    naples, munich, hamburg, frankfurt, zurich, geneva, athens, istanbul, moscow, kyiv, kiev,
    dubai, cairo, marrakech, cape town, johannesburg, nairobi, lagos, mumbai, delhi,
    new delhi, bangalore, beijing, shanghai, tokyo, kyoto, osaka, seoul, bangkok, hanoi,
    singapore, sydney, melbourne, brisbane, perth, auckland, toronto, vancouver, montreal,
    new york city, nyc, brooklyn, manhattan, los angeles, la, san francisco, san diego,
    seattle, portland, chicago, boston, miami, orlando, tampa, atlanta, houston, dallas,
    austin, denver, phoenix, las vegas, nashville, new orleans, philadelphia, detroit,
    minneapolis, pittsburgh, baltimore, salt lake city, honolulu, mexico city, cancun,
    rio de janeiro, sao paulo, buenos aires, lima, bogota, santiago, havana, fort wayne,
    indianapolis, cleveland, columbus, cincinnati, st louis, kansas city, sacramento,
    san jose, charlotte, raleigh, memphis, louisville, milwaukee, boise, anchorage,
    reykjavik, lyon, marseille, nice, bordeaux, seville, valencia, granada, porto alegre"""
)
PLACES: frozenset[str] = COUNTRIES | REGIONS | STATES | CITIES
# Adjectives of places and languages, capitalised in English but no entity ("German", "a
# European vacation").
DEMONYMS = _names(
    """american, british, english, french, german, italian, spanish, portuguese, dutch, swedish,
    norwegian, danish, finnish, irish, scottish, welsh, greek, turkish, russian, polish,
    ukrainian, chinese, japanese, korean, thai, vietnamese, indian, pakistani, mexican,
    brazilian, argentinian, canadian, australian, african, asian, european, latin, latino,
    hispanic, arabic, arab, hebrew, jewish, christian, muslim, hindu, buddhist, catholic,
    swiss, austrian, belgian, czech, hungarian, filipino, indonesian, egyptian, nigerian,
    kenyan, persian, mediterranean, nordic, scandinavian, western, eastern, southern, northern"""
)
