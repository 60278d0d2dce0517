/** A small web-app kind for the server's tests: a few text files served under /apps. */
import { definePlugin, defineKind } from '../../src/plugins/define-plugin';

type Site = { files: Record<string, string> };

export const siteKind = defineKind<Site, { path: string; text: string }>({
  name: 'test.site',
  description: 'A few text files served as an app',
  revisionSemantics: 'host',
  contentSchema: { type: 'object', properties: { files: { type: 'object', additionalProperties: { type: 'string' } } }, required: ['files'] },
  opSchema: { type: 'object', properties: { path: { type: 'string' }, text: { type: 'string' } }, required: ['path', 'text'] },
  initialContent: () => ({ files: { 'index.html': '<h1>first</h1>' } }),
  applyOp: (content, op) => ({ files: { ...content.files, [op.path]: op.text } }),
  summarize: (content) => Object.keys(content.files).join(', '),
  diff: () => 'changed',
  app: {
    file: (content, path) => {
      const text = content.files[path];
      return text === undefined ? undefined : { data: text, mediaType: path.endsWith('.js') ? 'text/javascript' : 'text/html; charset=utf-8' };
    },
  },
});

export const sitePlugin = definePlugin({ name: 'site', version: '1.0.0', kinds: [siteKind] });
