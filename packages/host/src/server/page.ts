/**
 * The placeholder served at `/` until the web UI lands. It holds no data and no secret, which is
 * why it is the one page served without credentials.
 */
export const PLACEHOLDER_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>cowork</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:44rem;margin:3rem auto;padding:0 1rem}code,pre{background:#f3f3f3;padding:.1rem .3rem}</style>
</head>
<body>
<h1>cowork is running</h1>
<p>The web UI is coming. Until then, use the HTTP API and the WebSocket endpoint.</p>
<ul>
<li>Every request needs <code>Authorization: Bearer &lt;token&gt;</code>. The token is <code>COWORK_TOKEN</code>, or the one
<code>cowork serve</code> stored in <code>&lt;workspace&gt;/server-token</code>.</li>
<li>The API is described by <code>GET /api/openapi.json</code>.</li>
<li>Live updates: a WebSocket on <code>/ws</code> (same header, or a single-use ticket from <code>POST /api/ws-tickets</code>).</li>
</ul>
<pre>curl -H "Authorization: Bearer $COWORK_TOKEN" http://HOST/api/health</pre>
</body>
</html>
`;
