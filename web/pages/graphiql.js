// GraphiQL on this server's GraphQL endpoint (the page's own URL, without its query string).
// The editor's text is kept in the URL (?q=...) so that a query can be shared as a link.
"use strict";

const EXAMPLE = `# Hippograph: long-term memory for AI agents. Run one with Ctrl-Enter or the play button.
mutation Remember {
  remember(namespace: "demo", memory: {content: "Ada prefers tea over coffee", memoryType: PREFERENCE, tags: ["drinks"]}) {
    created
    memory { id content strength tags }
  }
}

query Search {
  search(namespace: "demo", query: "what does Ada like to drink?", k: 3) {
    score
    memory { id content memoryType tags }
  }
}
`;

const params = new URLSearchParams(window.location.search);
const endpoint = window.location.origin + window.location.pathname;

function keepInUrl(query) {
  params.set("q", query);
  window.history.replaceState(null, "", "?" + params.toString());
}

const root = ReactDOM.createRoot(document.getElementById("graphiql"));
root.render(
  React.createElement(GraphiQL, {
    fetcher: GraphiQL.createFetcher({ url: endpoint }),
    defaultQuery: EXAMPLE,
    query: params.get("q") ?? undefined,
    onEditQuery: keepInUrl,
    defaultEditorToolsVisibility: false,
    isHeadersEditorEnabled: true,
  }),
);
