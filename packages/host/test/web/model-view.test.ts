/**
 * The `model` view block: a kind shows a GLB export, and in real Chromium the page loads three.js
 * from the host (only then), fetches the GLB with the person's session, parses it and reports its
 * meshes and triangles (drawn when the browser has WebGL). The three.js modules are served from a
 * fixed allow-list, public like the page's other assets, with their imports pointed at siblings.
 */
import { definePlugin } from '../../src/plugins/define-plugin';
import type { Json } from '../../src/store/records';
import { body, startTestServer, type TestServer } from '../server/harness';
import { launchChromium, openSignedIn, screenshot, type TestBrowser } from './browser';

// A 1x1 PNG: the cube's texture, embedded in the GLB.
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/**
 * A unit cube as a GLB written by hand: one mesh with one indexed primitive (8 corners, 12
 * triangles wound outward), texture coordinates and a baseColor texture from the BIN chunk.
 */
function cubeGlb(): Uint8Array {
  const corners: number[][] = [];
  for (let i = 0; i < 8; i++) corners.push([(i >> 2) & 1, (i >> 1) & 1, i & 1]);
  const positions = new Float32Array(corners.flatMap((c) => c.map((v) => v - 0.5)));
  const uvs = new Float32Array(corners.flatMap((c) => [c[0]!, c[1]!]));
  const indices: number[] = [];
  for (let axis = 0; axis < 3; axis++) {
    for (const side of [0, 1]) {
      // The face's corners in order around it, then each triangle wound so its normal points out.
      const [u, v] = [0, 1, 2].filter((a) => a !== axis) as [number, number];
      const at = (a: number, b: number): number => corners.findIndex((c) => c[axis] === side && c[u] === a && c[v] === b);
      const quad = [at(0, 0), at(1, 0), at(1, 1), at(0, 1)];
      for (const tri of [[quad[0]!, quad[1]!, quad[2]!], [quad[0]!, quad[2]!, quad[3]!]]) {
        const [p, q, r] = tri.map((i) => corners[i]!) as [number[], number[], number[]];
        const e1 = q.map((x, k) => x - p[k]!);
        const e2 = r.map((x, k) => x - p[k]!);
        const normal = [e1[1]! * e2[2]! - e1[2]! * e2[1]!, e1[2]! * e2[0]! - e1[0]! * e2[2]!, e1[0]! * e2[1]! - e1[1]! * e2[0]!];
        indices.push(...(normal[axis]! * (side === 1 ? 1 : -1) > 0 ? tri : [tri[0]!, tri[2]!, tri[1]!]));
      }
    }
  }
  const index = new Uint16Array(indices);
  const pad4 = (n: number): number => Math.ceil(n / 4) * 4;
  const parts = [Buffer.from(positions.buffer), Buffer.from(uvs.buffer), Buffer.from(index.buffer), PIXEL];
  const offsets: number[] = [];
  let length = 0;
  for (const part of parts) {
    offsets.push(length);
    length = pad4(length + part.length);
  }
  const bin = Buffer.alloc(length);
  parts.forEach((part, i) => part.copy(bin, offsets[i]));
  const json = {
    asset: { version: '2.0', generator: 'cowork test' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ mesh: 0, name: 'cube' }],
    meshes: [{ primitives: [{ attributes: { POSITION: 0, TEXCOORD_0: 1 }, indices: 2, material: 0, mode: 4 }] }],
    materials: [{ pbrMetallicRoughness: { baseColorTexture: { index: 0 }, metallicFactor: 0 } }],
    textures: [{ source: 0, sampler: 0 }],
    samplers: [{ magFilter: 9729, minFilter: 9729 }],
    images: [{ bufferView: 3, mimeType: 'image/png' }],
    buffers: [{ byteLength: bin.length }],
    bufferViews: [
      { buffer: 0, byteOffset: offsets[0], byteLength: positions.byteLength, target: 34962 },
      { buffer: 0, byteOffset: offsets[1], byteLength: uvs.byteLength, target: 34962 },
      { buffer: 0, byteOffset: offsets[2], byteLength: index.byteLength, target: 34963 },
      { buffer: 0, byteOffset: offsets[3], byteLength: PIXEL.length },
    ],
    accessors: [
      { bufferView: 0, componentType: 5126, count: 8, type: 'VEC3', min: [-0.5, -0.5, -0.5], max: [0.5, 0.5, 0.5] },
      { bufferView: 1, componentType: 5126, count: 8, type: 'VEC2' },
      { bufferView: 2, componentType: 5123, count: index.length, type: 'SCALAR' },
    ],
  };
  const text = Buffer.from(JSON.stringify(json));
  const jsonChunk = Buffer.concat([text, Buffer.alloc(pad4(text.length) - text.length, 0x20)]);
  const chunk = (type: number, data: Buffer): Buffer => {
    const head = Buffer.alloc(8);
    head.writeUInt32LE(data.length, 0);
    head.writeUInt32LE(type, 4);
    return Buffer.concat([head, data]);
  };
  const chunks = Buffer.concat([chunk(0x4e4f534a, jsonChunk), chunk(0x004e4942, bin)]);
  const header = Buffer.alloc(12);
  header.writeUInt32LE(0x46546c67, 0); // 'glTF'
  header.writeUInt32LE(2, 4);
  header.writeUInt32LE(12 + chunks.length, 8);
  return new Uint8Array(Buffer.concat([header, chunks]));
}

type Part = { name: string; broken?: boolean };

const partPlugin = definePlugin({
  name: 'parts',
  version: '1.0.0',
  kinds: [
    {
      name: 'demo.part',
      description: 'A part shown as a 3D model.',
      revisionSemantics: 'host',
      contentSchema: { type: 'object', properties: { name: { type: 'string' }, broken: { type: 'boolean' } }, required: ['name'] },
      opSchema: { type: 'object' },
      initialContent: () => ({ name: 'part' }),
      applyOp: (content: Json) => content,
      summarize: (content: Json) => (content as Part).name,
      diff: () => '',
      view: (content: Json, context) => [
        { type: 'heading', text: (content as Part).name },
        { type: 'model', url: context.exportUrl('glb'), alt: `${(content as Part).name}, a cube` },
      ],
      exports: {
        glb: {
          mediaType: 'model/gltf-binary',
          extension: 'glb',
          export: async (content: Json) => {
            if ((content as Part).broken) throw new Error('the part does not build');
            return cubeGlb();
          },
        },
      },
    },
  ],
});

let t: TestServer;
afterEach(() => t.dispose());

it('accepts a model block with a same-origin URL, and serves the allow-listed three.js modules with their imports rewritten', async () => {
  t = await startTestServer({}, { plugins: [partPlugin] });
  const part = await t.host.resources.create({ kind: 'demo.part', content: { name: 'bracket' }, operator: 'human:ann' });
  const view = body<{ blocks: unknown[] }>(await t.request({ method: 'GET', url: `/api/resources/${part.id}/view` }));
  expect(view.blocks[1]).toEqual({ type: 'model', url: `/api/resources/${part.id}/export/glb?revision=0`, alt: 'bracket, a cube' });
  const glb = await t.request({ method: 'GET', url: `/api/resources/${part.id}/export/glb` });
  expect(glb.statusCode).toBe(200);
  expect(glb.rawPayload.subarray(0, 4).toString()).toBe('glTF');

  // Public, like the page's own scripts: no token, and the usual security headers.
  const noAuth = { authorization: undefined };
  const loader = await t.request({ method: 'GET', url: '/web/vendor/three/GLTFLoader.js', headers: noAuth });
  expect(loader.statusCode).toBe(200);
  expect(loader.headers['content-type']).toBe('text/javascript; charset=utf-8');
  expect(loader.headers['content-security-policy']).toContain("default-src 'self'");
  expect(loader.headers['x-content-type-options']).toBe('nosniff');
  expect(loader.body).toContain("} from './three.module.js';");
  expect(loader.body).toContain("import { toTrianglesDrawMode } from './BufferGeometryUtils.js';");
  expect(loader.body).toContain("import { clone } from './SkeletonUtils.js';");
  // Only the examples in doc comments still say 'three'.
  expect(loader.body).not.toMatch(/^(import|export|\})[^\n]*from '(three|\.\.\/)/m);
  for (const name of ['OrbitControls.js', 'BufferGeometryUtils.js', 'SkeletonUtils.js']) {
    const module = await t.request({ method: 'GET', url: `/web/vendor/three/${name}`, headers: noAuth });
    expect(module.statusCode).toBe(200);
    expect(module.body).toContain("} from './three.module.js';");
    expect(module.body).not.toMatch(/^(import|export|\})[^\n]*from '(three|\.\.\/)/m);
  }
  const main = await t.request({ method: 'GET', url: '/web/vendor/three/three.module.js', headers: noAuth });
  expect(main.body).toContain("from './three.core.js';");
  expect(main.body).not.toMatch(/^import [^;]*from '(?!\.\/three\.core\.js')/m);
  const core = await t.request({ method: 'GET', url: '/web/vendor/three/three.core.js', headers: noAuth });
  expect(core.statusCode).toBe(200);
  expect(core.body).toMatch(/export \{[^}]*\bWebGLRenderTarget\b/);

  // Nothing else of the package, and nothing outside it.
  for (const name of ['three.cjs', 'three.webgpu.js', 'GLTFExporter.js', '..%2Fpackage.json', '..%2F..%2F..%2Fpackage.json', 'constructor', 'toString']) {
    const refused = await t.request({ method: 'GET', url: `/web/vendor/three/${name}`, headers: noAuth });
    expect([name, refused.statusCode]).toEqual([name, 404]);
  }
  expect(t.errors).toEqual([]);
});

describe('in Chromium', () => {
  let browser: TestBrowser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('loads three.js only for a model, then shows the GLB with its mesh and triangle counts, or the export failure', async () => {
    t = await startTestServer({ port: 0 }, { plugins: [partPlugin] });
    const baseUrl = await t.listenHttp();
    const part = await t.host.resources.create({ kind: 'demo.part', content: { name: 'bracket' }, operator: 'human:ann' });
    const broken = await t.host.resources.create({ kind: 'demo.part', content: { name: 'gear', broken: true }, operator: 'human:ann' });
    const { page, urls, problems } = await openSignedIn(browser.context, baseUrl);
    expect(urls.filter((u) => u.includes('/web/vendor/'))).toEqual([]);

    await page.click(`button[data-resource-id="${part.id}"]`);
    const figure = page.locator('#editor-view figure.model-view');
    await page.locator('#editor-view figure.model-view[data-state="loaded"]').waitFor();
    expect(await figure.getAttribute('data-meshes')).toBe('1');
    expect(await figure.getAttribute('data-triangles')).toBe('12');
    // The embedded texture was decoded without a blob: URL, which the page's CSP refuses.
    expect(await figure.getAttribute('data-textures')).toBe('1');
    expect(await figure.locator('figcaption').textContent()).toContain('bracket, a cube');
    expect(await figure.locator('figcaption a').getAttribute('href')).toBe(`/api/resources/${part.id}/export/glb?revision=0`);
    const webgl = await figure.getAttribute('data-webgl');
    expect(['true', 'false']).toContain(webgl);
    const status = await figure.locator('.model-status').textContent();
    if (webgl === 'true') {
      expect(status).toBe('1 mesh, 12 triangles');
      expect(await figure.locator('canvas').isVisible()).toBe(true);
    } else {
      expect(status).toContain('1 mesh, 12 triangles. The 3D view needs WebGL');
      expect(await figure.locator('canvas').isHidden()).toBe(true);
    }
    const vendor = urls.filter((u) => u.includes('/web/vendor/three/')).map((u) => u.replace(/^.*\//, ''));
    expect(new Set(vendor)).toEqual(new Set(['three.module.js', 'three.core.js', 'GLTFLoader.js', 'OrbitControls.js', 'BufferGeometryUtils.js', 'SkeletonUtils.js']));
    await screenshot(page, 'model-view-1-cube');

    // An export that fails shows its error in the figure.
    await page.click(`button[data-resource-id="${broken.id}"]`);
    const failed = page.locator('#editor-view figure.model-view[data-state="error"]');
    await failed.waitFor();
    expect(await failed.locator('.model-status').textContent()).toMatch(/^The model could not be shown: .*plugin/);
    await screenshot(page, 'model-view-2-error');

    // Without WebGL (headless Chromium may have none) the model is still parsed and counted.
    await page.evaluate('HTMLCanvasElement.prototype.getContext = function () { return null; }');
    await page.click(`button[data-resource-id="${part.id}"]`);
    const counted = page.locator('#editor-view figure.model-view[data-state="loaded"]');
    await counted.waitFor();
    expect(await counted.getAttribute('data-webgl')).toBe('false');
    expect(await counted.getAttribute('data-triangles')).toBe('12');
    expect(await counted.locator('.model-status').textContent()).toBe('1 mesh, 12 triangles. The 3D view needs WebGL, which this browser does not offer; download the model to look at it.');
    expect(await counted.locator('canvas').isHidden()).toBe(true);

    expect(problems).toEqual([]);
    await page.close();
  });
});
