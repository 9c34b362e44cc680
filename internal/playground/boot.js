// Starts GraphiQL against the endpoint the server wrote into #graphiql.
// Kept out of index.html so the Content-Security-Policy can forbid inline scripts.
(function () {
  'use strict';
  var root = document.getElementById('graphiql');
  var url = new URL(root.dataset.endpoint, location.href);
  // Subscriptions: same path, ws:// or wss:// to match the page, spoken with the
  // graphql-transport-ws protocol (the graphql-ws client GraphiQL bundles).
  var ws = new URL(url.href);
  ws.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';

  var props = {
    fetcher: GraphiQL.createFetcher({
      url: url.href,
      subscriptionUrl: ws.href,
      // Websockets cannot carry headers: send the headers editor's content
      // (e.g. Authorization) as the connection_init payload, read when connecting.
      wsConnectionParams: function () {
        try {
          return JSON.parse(localStorage.getItem('graphiql:headers') || '{}');
        } catch (e) {
          return {};
        }
      },
    }),
    // The headers editor is how a user sends {"Authorization": "<token>"};
    // persisting it keeps the token across reloads (in this browser's storage).
    isHeadersEditorEnabled: true,
    shouldPersistHeaders: true,
  };
  // ?query=... presets the editor, so links can open a ready-to-run query.
  var query = new URLSearchParams(location.search).get('query');
  if (query !== null) {
    props.query = query;
  }
  ReactDOM.createRoot(root).render(React.createElement(GraphiQL, props));
})();
