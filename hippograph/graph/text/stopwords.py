"""Words that say nothing of a topic, left out of the full-text index (`fulltext.words`) and,
with words of time, quantity and quality added, of the tags the tagger infers
(`write.tagging`)."""

from __future__ import annotations

# A word list reads better as text than as 400 quoted literals. FUNCTION_WORDS: words that say
# nothing of a topic: function words, chat filler, generic verbs (the full-text side leaves out
# only these: `fulltext.words`). STOPWORDS adds words of time, quantity and quality ("saturday",
# "first", "new"), which make no tag but which a search must find.
FUNCTION_WORDS: frozenset[str] = frozenset(
    """
    a about above across after afterwards again against all almost alone along already also
    although always am among amongst an and another any anybody anyhow anyone anything anyway
    anyways anywhere are aren around as at back be became because become becomes becoming been
    before beforehand behind being below beside besides between beyond both but by can cannot
    cant could couldn did didn do does doesn doing don done down during each either else
    elsewhere enough etc even ever every everybody everyone everything everywhere except few
    for former formerly from further had hadn has hasn have haven having he hence her here
    hereafter hereby herein hers herself him himself his how however i ie if in indeed into
    is isn it its itself just least less let lets ll many may maybe me meanwhile might mine
    more moreover most mostly much must mustn my myself namely neither never nevertheless next
    near no nobody none noone nor not nothing now nowhere of off often on once one only onto or
    other others otherwise our ours ourselves out over own per perhaps please quite rather re
    same several she should shouldn since so some somebody somehow someone something sometime
    sometimes somewhat somewhere still such than that the their theirs them themselves then
    thence there thereafter thereby therefore therein thereupon these they this those though
    through throughout thru thus to together too toward towards under until up upon us ve very
    via was wasn we were weren what whatever when whence whenever where whereafter whereas
    whereby wherein whereupon wherever whether which while whither who whoever whole whom whose
    why will with within without won would wouldn yet you your yours yourself yourselves
    i'm i've i'll i'd you're you've you'll you'd he's she's it's we're we've we'll we'd
    they're they've they'll they'd that's there's here's what's who's let's can't won't don't
    doesn't didn't isn't aren't wasn't weren't haven't hasn't hadn't shouldn't wouldn't
    couldn't mustn't ain't y'all gonna wanna gotta kinda sorta
    oh ok okay yeah yes yep nope hey hi hello bye thanks thank thx please sure wow cool nice
    great awesome amazing glad sorry lol haha omg btw fyi hmm um uh well right totally really
    actually basically literally definitely probably certainly seriously honestly hopefully
    exactly especially usually recently finally simply clearly likely nearly fully truly
    absolutely lot lots bit kind sort thing things stuff way ways time times day days
    get gets got getting gotten go goes going went gone make makes made making take takes
    took taken taking come comes came coming see sees saw seen seeing know knows knew known
    think thinks thought thinking say says said saying tell tells told want wants wanted
    like liked likes look looks looked looking feel feels felt feeling give gives gave given
    use uses used using try tries tried trying need needs needed keep keeps kept put puts
    mean means meant seem seems seemed let find found work
    """.split()  # noqa: SIM905
)
STOPWORDS: frozenset[str] = FUNCTION_WORDS | frozenset(
    """
    good bad new old big small little
    long last first second today yesterday tomorrow tonight ago soon later week weeks month
    months year years morning evening night monday tuesday wednesday thursday friday saturday
    sunday pm january february march april june july august september october november december
    two three four five six seven eight nine ten hundred thousand lot also able
    """.split()  # noqa: SIM905
)
