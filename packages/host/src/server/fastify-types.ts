/**
 * What the server adds to fastify's route declarations. Each route declares its access and its
 * documentation beside its schemas, and the guard and the OpenAPI document read them from there.
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    /** Served without credentials (the sign-in page and the sign-in itself); Host and Origin are still checked. */
    readonly public?: boolean;
    /** Accepts a single-use `?ticket=` instead of a header or cookie (the WebSocket endpoint). */
    readonly ticket?: boolean;
    /** A live web app's file: answered with the app headers (a sandbox) instead of the page's. */
    readonly app?: boolean;
    /** An export a view frames (`?inline=true`): answered inline with the framed-export headers (a sandbox) instead of the page's. */
    readonly framedExport?: boolean;
    /** A viewer may call it although its method is not GET (it changes nothing: a WebSocket ticket, signing out). */
    readonly viewer?: boolean;
  }

  interface FastifyRequest {
    /** Whose credential the request carries, set by the guard (the owner on public routes). */
    principal: import('../identity/principal').Principal;
  }

  interface FastifySchema {
    summary?: string;
    description?: string;
    tags?: readonly string[];
    /** Error statuses the route can answer beyond those every route shares (409 for commits). */
    errors?: readonly number[];
  }
}

export {};
