import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context';
import { WEB_PAGE } from '../page';
import { Open } from '../schemas';

/** `/` (the web page), health, and what the loaded plugins provide. */
export function registerMetaRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get('/', { config: { public: true }, schema: { summary: 'The web page (the web page for people: conversation, task state, resources, history)', tags: ['meta'] } }, async (_request, reply) => {
    void reply.type('text/html; charset=utf-8');
    return WEB_PAGE;
  });

  app.get(
    '/api/health',
    {
      schema: {
        summary: 'Whether the server is up, and what it can do',
        tags: ['meta'],
        response: { 200: Type.Object({ status: Type.Literal('ok'), version: Type.String(), tasks: Type.Boolean({ description: 'false when no model is configured' }) }) },
      },
    },
    async () => ({ status: 'ok' as const, version: ctx.version, tasks: ctx.tasks.runtime !== undefined }),
  );

  app.get(
    '/api/plugins',
    {
      schema: {
        summary: "Loaded plugins: their kinds (with revision semantics and schemas), tools, and plugins that failed to load",
        tags: ['meta'],
        response: { 200: Open({ plugins: Type.Array(Open()), problems: Type.Array(Open()) }) },
      },
    },
    async () => ({
      plugins: ctx.host.registry.plugins().map((plugin) => ({
        name: plugin.name,
        version: plugin.version,
        description: plugin.description ?? null,
        kinds: plugin.kinds.map((kind) => ({
          name: kind.name,
          description: kind.description,
          revisionSemantics: kind.revisionSemantics,
          contentSchema: kind.contentSchema,
          opSchema: kind.opSchema,
          // What the page offers to import as this kind.
          imports: Object.entries(kind.imports ?? {}).map(([format, f]) => ({ format, extension: f.extension, description: f.description ?? null })),
        })),
        tools: plugin.tools.map((tool) => ({ name: tool.name, description: tool.description, permissions: tool.permissions, inputSchema: tool.inputSchema })),
      })),
      problems: ctx.host.pluginProblems,
    }),
  );
}

/** This package's version, read from its package.json (one level above both src/ and dist/). */
export function hostVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}
