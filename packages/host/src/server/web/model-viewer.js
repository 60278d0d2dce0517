// Shows a `model` view block: a GLB from this origin, fetched with the page's session, parsed by
// three.js and drawn in a canvas a person can orbit, with the model's alt text and a download link.
// three.js (served by the host under /web/vendor/three/) is loaded only when a model is shown.
// When done the figure carries data-state="loaded" with data-meshes, data-triangles and
// data-textures (drawn three.js meshes, one per glTF primitive, their triangles, the textures
// their materials use) and data-webgl (whether it was drawn), or data-state="error".
import { h } from './dom.js';

const VENDOR = '/web/vendor/three/';

let modules = null;

/** three.js, its GLTFLoader and OrbitControls, imported once (again after a failure). */
function loadThree() {
  if (!modules) {
    modules = Promise.all([import(`${VENDOR}three.module.js`), import(`${VENDOR}GLTFLoader.js`), import(`${VENDOR}OrbitControls.js`)]).then(
      ([THREE, gltf, controls]) => ({ THREE, GLTFLoader: gltf.GLTFLoader, OrbitControls: controls.OrbitControls }),
    );
    modules.catch(() => (modules = null));
  }
  return modules;
}

/** The figure for one block; the model loads into it once it is in the page. */
export function renderModel(block) {
  const canvas = h('canvas', { class: 'model-canvas', role: 'img', 'aria-label': block.alt });
  const status = h('p', { class: 'model-status muted', role: 'status' }, 'Loading the 3D model…');
  const figure = h(
    'figure',
    { class: 'model-view', dataset: { state: 'loading' } },
    canvas,
    h('figcaption', {}, block.alt, ' ', h('a', { href: block.url, download: '' }, 'Download the model (GLB)')),
    status,
  );
  void show(figure, canvas, status, block.url);
  return figure;
}

async function show(figure, canvas, status, url) {
  let gltf;
  let three;
  try {
    const [loaded, data] = await Promise.all([loadThree(), fetchModel(url)]);
    three = loaded;
    const loader = new three.GLTFLoader();
    loader.register((parser) => new CspImages(parser, three.THREE));
    gltf = await loader.parseAsync(data, '');
  } catch (error) {
    figure.dataset.state = 'error';
    status.className = 'model-status error';
    status.textContent = `The model could not be shown: ${(error && error.message) || error}`;
    canvas.hidden = true;
    return;
  }
  const { meshes, triangles, textures } = count(gltf.scene);
  const counts = `${meshes} ${meshes === 1 ? 'mesh' : 'meshes'}, ${triangles} ${triangles === 1 ? 'triangle' : 'triangles'}`;
  let drawn = false;
  if (figure.isConnected && webGlAvailable()) {
    try {
      draw(canvas, gltf.scene, three);
      drawn = true;
    } catch {
      drawn = false;
    }
  }
  if (!drawn) {
    canvas.hidden = true;
    dispose(gltf.scene);
  }
  status.textContent = drawn ? counts : `${counts}. The 3D view needs WebGL, which this browser does not offer; download the model to look at it.`;
  Object.assign(figure.dataset, { state: 'loaded', meshes: String(meshes), triangles: String(triangles), textures: String(textures), webgl: String(drawn) });
}

/** The GLB's bytes, fetched with the session cookie (same origin). */
async function fetchModel(url) {
  if (typeof url !== 'string' || !url.startsWith('/') || url.startsWith('//')) throw new Error('the model is not on this server');
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) {
    let message = `HTTP ${response.status}`;
    try {
      const body = await response.json();
      if (body && body.error && body.error.message) message = body.error.message;
    } catch {
      // not JSON: keep the status
    }
    throw new Error(message);
  }
  return response.arrayBuffer();
}

function count(scene) {
  let meshes = 0;
  let triangles = 0;
  const textures = new Set();
  scene.traverse((object) => {
    if (!object.isMesh || !object.geometry) return;
    const geometry = object.geometry;
    const vertices = geometry.index ? geometry.index.count : geometry.attributes.position ? geometry.attributes.position.count : 0;
    meshes += 1;
    triangles += Math.floor(vertices / 3) * (object.isInstancedMesh ? object.count : 1);
    for (const material of [].concat(object.material || [])) for (const value of Object.values(material)) if (value && value.isTexture) textures.add(value);
  });
  return { meshes, triangles, textures: textures.size };
}

/** three.js needs WebGL 2; asked of a spare canvas, so a browser without it logs no renderer error. */
function webGlAvailable() {
  try {
    return document.createElement('canvas').getContext('webgl2') !== null;
  } catch {
    return false;
  }
}

/**
 * Draws the scene, framed on its bounding box, and redraws when the person orbits or the canvas
 * is resized. Everything is released when the figure leaves the page (the view is redrawn on
 * each revision), so old WebGL contexts do not pile up.
 */
function draw(canvas, model, { THREE, OrbitControls }) {
  const renderer = new THREE.WebGLRenderer({ canvas, antialias: true });
  renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0xf5f5f5);
  scene.add(model);

  const box = new THREE.Box3().setFromObject(model);
  const center = box.isEmpty() ? new THREE.Vector3() : box.getCenter(new THREE.Vector3());
  const radius = box.isEmpty() ? 1 : Math.max(box.getBoundingSphere(new THREE.Sphere()).radius, 1e-6);
  const camera = new THREE.PerspectiveCamera(45, 4 / 3, radius / 100, radius * 100);
  const distance = (radius / Math.sin(THREE.MathUtils.degToRad(camera.fov / 2))) * 1.1;
  camera.position.copy(center).add(new THREE.Vector3(1, 0.8, 1.2).normalize().multiplyScalar(distance));
  camera.lookAt(center);

  scene.add(new THREE.AmbientLight(0xffffff, 1));
  const sun = new THREE.DirectionalLight(0xffffff, 2.5);
  sun.position.copy(center).add(new THREE.Vector3(1, 2, 1.5).multiplyScalar(radius * 2));
  sun.target.position.copy(center);
  scene.add(sun, sun.target);

  const controls = new OrbitControls(camera, canvas);
  controls.target.copy(center);
  controls.update();

  const render = () => renderer.render(scene, camera);
  const resize = () => {
    const width = canvas.clientWidth;
    const height = canvas.clientHeight;
    if (width === 0 || height === 0) return;
    renderer.setSize(width, height, false);
    camera.aspect = width / height;
    camera.updateProjectionMatrix();
    render();
  };
  controls.addEventListener('change', render);
  const observer = new ResizeObserver(() => {
    if (!canvas.isConnected) {
      observer.disconnect();
      controls.dispose();
      dispose(model);
      renderer.dispose();
      renderer.forceContextLoss();
      return;
    }
    resize();
  });
  observer.observe(canvas);
  resize();
}

function dispose(model) {
  model.traverse((object) => {
    if (object.geometry) object.geometry.dispose();
    for (const material of [].concat(object.material || [])) {
      for (const value of Object.values(material)) if (value && value.isTexture) value.dispose();
      material.dispose();
    }
  });
}

/**
 * A GLTFLoader plugin that decodes a GLB's embedded images (and data: URIs) with
 * createImageBitmap, where the loader would go through a blob: URL that the page's
 * Content-Security-Policy (`default-src 'self'`) refuses. Other images are left to the loader.
 */
class CspImages {
  constructor(parser, THREE) {
    this.name = 'cowork_csp_images';
    this.parser = parser;
    this.THREE = THREE;
  }

  loadTexture(textureIndex) {
    const json = this.parser.json;
    const textureDef = json.textures[textureIndex];
    const source = textureDef.source;
    const image = source === undefined ? undefined : json.images[source];
    if (!image || textureDef.extensions) return null;
    if (image.bufferView === undefined && !(typeof image.uri === 'string' && image.uri.startsWith('data:'))) return null;
    const THREE = this.THREE;
    const decoder = {
      // The loader hands a loader marked like this the image's bytes instead of a URL.
      isKTX2Loader: true,
      parse: (bytes, onLoad, onError) => void bitmapTexture(new Blob([bytes], { type: image.mimeType || '' }), THREE).then(onLoad, onError),
      load: (uri, onLoad, _onProgress, onError) => void dataUriBlob(uri).then((blob) => bitmapTexture(blob, THREE)).then(onLoad, onError),
    };
    return this.parser.loadTextureImage(textureIndex, source, decoder);
  }
}

async function bitmapTexture(blob, THREE) {
  const bitmap = await createImageBitmap(blob, { premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
  const texture = new THREE.Texture(bitmap);
  texture.needsUpdate = true;
  return texture;
}

async function dataUriBlob(uri) {
  const match = /^data:([^;,]*)(;base64)?,(.*)$/s.exec(uri);
  if (!match) throw new Error('malformed data: URI');
  const text = match[2] ? atob(match[3]) : decodeURIComponent(match[3]);
  const bytes = Uint8Array.from(text, (c) => c.charCodeAt(0));
  return new Blob([bytes], { type: match[1] });
}
