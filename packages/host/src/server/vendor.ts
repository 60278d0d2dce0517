import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { CoworkError } from '../errors';
import './fastify-types';

/**
 * The few three.js modules the page's model viewer loads (`web/model-viewer.js`), by the name the
 * page asks for, and where each lies in the `three` package. Nothing else of the package is served.
 */
const THREE_FILES: Readonly<Record<string, string>> = {
  'three.module.js': 'build/three.module.js',
  'three.core.js': 'build/three.core.js',
  'GLTFLoader.js': 'examples/jsm/loaders/GLTFLoader.js',
  'OrbitControls.js': 'examples/jsm/controls/OrbitControls.js',
  'BufferGeometryUtils.js': 'examples/jsm/utils/BufferGeometryUtils.js',
  'SkeletonUtils.js': 'examples/jsm/utils/SkeletonUtils.js',
};

export const THREE_VENDOR_PATH = '/web/vendor/three/';

const VendorParams = Type.Object({ name: Type.String({ maxLength: 64 }) });
type VendorParams = Static<typeof VendorParams>;

/**
 * Serves the allow-listed three.js modules at `/web/vendor/three/<name>`, public like the page's
 * other assets. The page has no bundler or import map, so the import specifiers the examples use
 * (`'three'`, `'../utils/X.js'`) are rewritten to siblings in this folder; a specifier that is not
 * one of the served files fails the request, rather than serving a module the browser cannot load.
 * Each file is read and rewritten once, on first request, then kept.
 */
export function registerVendorAssets(app: FastifyInstance): void {
  const cache = new Map<string, string>();
  app.get<{ Params: VendorParams }>(
    `${THREE_VENDOR_PATH}:name`,
    { config: { public: true }, schema: { summary: "The three.js modules of the web page's 3D model viewer", tags: ['meta'], params: VendorParams } },
    async (request, reply) => {
      const name = request.params.name;
      if (!Object.hasOwn(THREE_FILES, name)) throw new CoworkError('not_found', `no vendor module ${JSON.stringify(name)}`);
      let body = cache.get(name);
      if (body === undefined) {
        body = rewriteImports(name, readFileSync(join(threeDir(), THREE_FILES[name]!), 'utf8'));
        cache.set(name, body);
      }
      void reply.type('text/javascript; charset=utf-8');
      return body;
    },
  );
}

/** The `three` package's folder (its main entry is `build/three.cjs`). */
function threeDir(): string {
  return dirname(dirname(require.resolve('three')));
}

// A static import or re-export at the start of a line (so not the examples in doc comments), up to its specifier.
const STATIC_IMPORT = /^((?:import|export)\b[^;'"]*?\bfrom\s*|import\s*)(['"])([^'"]+)\2/gm;

/** Points every static import of `name`'s source at a served sibling: `'three'` and `'../dir/X.js'` become `./three.module.js` and `./X.js`. */
export function rewriteImports(name: string, source: string): string {
  const rewritten = source.replace(STATIC_IMPORT, (_match, head: string, quote: string, specifier: string) => {
    const target = specifier === 'three' ? 'three.module.js' : /^\.\.?\/(?:[A-Za-z]+\/)?([A-Za-z0-9.]+\.js)$/.exec(specifier)?.[1];
    if (target === undefined || !Object.hasOwn(THREE_FILES, target)) {
      throw new Error(`three.js module ${name} imports ${JSON.stringify(specifier)}, which is not served under ${THREE_VENDOR_PATH}`);
    }
    return `${head}${quote}./${target}${quote}`;
  });
  if (/\bimport\s*\(/.test(rewritten.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, ''))) {
    // A dynamic import would bypass the rewrite; none of the served files has one today.
    throw new Error(`three.js module ${name} has a dynamic import, which is not rewritten`);
  }
  return rewritten;
}
