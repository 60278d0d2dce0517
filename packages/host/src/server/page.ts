import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { CoworkError } from '../errors';
import './fastify-types';

/**
 * The web page served at `/`: a shell that loads the plain scripts and stylesheet in `web/` (no
 * build step, no framework). It holds no data and no secret, which is why it and its assets are
 * the only things served without credentials; the page signs in with POST /api/session (the
 * token goes in a JSON body, never in a URL) and everything it shows comes from the API.
 * The server's CSP allows scripts only from this origin, so there is no inline script here.
 * (The name is kept for `routes/meta.ts`, which serves it.)
 */
export const WEB_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>cowork</title>
<link rel="stylesheet" href="/web/app.css">
<script type="module" src="/web/app.js"></script>
</head>
<body>
<header class="top">
<h1>cowork</h1>
<span id="live-status" class="badge" role="status" aria-live="polite">offline</span>
<label class="operator">Your name <input id="operator-name" value="web" size="12" autocomplete="off" spellcheck="false"></label>
<button id="sign-out" type="button" hidden>Sign out</button>
</header>
<noscript><p>This page needs JavaScript. Without it, use the HTTP API described by <code>GET /api/openapi.json</code>.</p></noscript>
<main id="app">
<section id="sign-in" class="panel" hidden aria-labelledby="sign-in-title">
<h2 id="sign-in-title">Sign in</h2>
<p>Paste the server's token: <code>COWORK_TOKEN</code>, or the one <code>cowork serve</code> stored in <code>&lt;workspace&gt;/server-token</code>.
It is sent once in a request body and exchanged for a session cookie; it is never put in a URL.</p>
<form id="sign-in-form">
<label for="token">Token</label>
<input id="token" name="token" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
<p id="sign-in-error" class="error" role="alert"></p>
</section>
<div id="workspace" hidden></div>
</main>
<footer class="foot"><p>Each resource is shown and edited in place through its kind's view (or as JSON, through its ops); what others commit arrives live.</p></footer>
</body>
</html>
`;

/** What each served asset is, by extension; anything else in `web/` is not served. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

const AssetParams = Type.Object({ name: Type.String({ pattern: '^[a-z0-9-]+\\.(js|css)$' }) });
type AssetParams = Static<typeof AssetParams>;

/**
 * Serves the page's scripts and stylesheet at `/web/<name>`. They are read once, when the server
 * is built, from the `web/` folder beside this file (so a request can never name a path outside
 * it); under `dist/`, where tsc does not copy them, they are read from `src/server/web`.
 */
export function registerWebAssets(app: FastifyInstance): void {
  const assets = loadAssets(webDir());
  app.get<{ Params: AssetParams }>(
    '/web/:name',
    { config: { public: true }, schema: { summary: "The web page's scripts and stylesheet", tags: ['meta'], params: AssetParams } },
    async (request, reply) => {
      const asset = assets.get(request.params.name);
      if (!asset) throw new CoworkError('not_found', `no asset ${JSON.stringify(request.params.name)}`);
      void reply.type(asset.type);
      return asset.body;
    },
  );
}

function webDir(): string {
  const beside = join(__dirname, 'web');
  return existsSync(beside) ? beside : join(__dirname, '..', '..', 'src', 'server', 'web');
}

function loadAssets(dir: string): Map<string, { body: string; type: string }> {
  const assets = new Map<string, { body: string; type: string }>();
  if (!existsSync(dir)) return assets;
  for (const name of readdirSync(dir)) {
    const type = CONTENT_TYPES[extname(name)];
    if (type) assets.set(name, { body: readFileSync(join(dir, name), 'utf8'), type });
  }
  return assets;
}
