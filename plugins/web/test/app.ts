// A small app the tests share: an entry page, a script, a stylesheet and a binary image.
import type { WebApp } from '../src';

/** The 1x1 transparent PNG, as bytes a browser decodes. */
export const PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

export function app(): WebApp {
  return {
    entry: 'index.html',
    files: {
      'index.html': { text: '<!doctype html>\n<title>Demo</title>\n<link rel="stylesheet" href="css/style.css">\n<p id="out">hello</p>\n<script src="app.js"></script>\n' },
      'app.js': { text: "const out = document.getElementById('out');\nout.textContent = 'ready';\n" },
      'css/style.css': { text: 'body { color: #222; }\np { margin: 0; }\n' },
      'img/pixel.png': { base64: PIXEL_PNG },
    },
  };
}
