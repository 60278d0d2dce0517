import { inflateSync } from 'node:zlib';
import type { Vec3 } from './content';

/**
 * What the blender suite's checks read out of Blender's own exports: each mesh's world bounding box
 * from a GLB (Blender's glTF exporter), the pixels of a PNG preview (Cycles), and where a point
 * falls in a camera's frame. No image or glTF library: the formats are read by hand.
 */

/** An axis-aligned box in Blender's world coordinates (metres, z up). */
export interface Box {
  readonly min: Vec3;
  readonly max: Vec3;
}

type Mat4 = number[]; // column-major, as glTF writes matrices

interface GltfNode {
  name?: string;
  mesh?: number;
  children?: number[];
  matrix?: number[];
  translation?: number[];
  rotation?: number[];
  scale?: number[];
}

interface Gltf {
  scene?: number;
  scenes?: { nodes?: number[] }[];
  nodes?: GltfNode[];
  meshes?: { primitives: { attributes: { POSITION?: number } }[] }[];
  accessors?: { min?: number[]; max?: number[] }[];
  materials?: { name?: string }[];
}

/** The JSON chunk of a GLB (binary glTF 2). */
export function glbJson(glb: Uint8Array): Gltf {
  const data = Buffer.from(glb.buffer, glb.byteOffset, glb.byteLength);
  if (data.length < 20 || data.readUInt32LE(0) !== 0x46546c67) throw new Error('the export is not a GLB file');
  const length = data.readUInt32LE(12);
  if (data.readUInt32LE(16) !== 0x4e4f534a) throw new Error("the GLB's first chunk is not JSON");
  return JSON.parse(data.toString('utf8', 20, 20 + length)) as Gltf;
}

/** Every node of the GLB's scene by name (meshes, cameras, lights, empties). */
export function glbNodeNames(gltf: Gltf): string[] {
  const names: string[] = [];
  walk(gltf, (node) => {
    if (node.name !== undefined) names.push(node.name);
  });
  return names;
}

/**
 * Each mesh object's world bounding box, by name, in Blender's coordinates: the exporter's
 * per-primitive position bounds through the node hierarchy's transforms (parents included), turned
 * back from glTF's y-up axes (Blender x, y, z = glTF x, -z, y). Modifiers are not applied by the
 * export, so a mesh is bounded as its base geometry.
 */
export function glbMeshBounds(gltf: Gltf): Map<string, Box> {
  const bounds = new Map<string, Box>();
  walk(gltf, (node, world) => {
    if (node.mesh === undefined || node.name === undefined) return;
    const low = [Infinity, Infinity, Infinity];
    const high = [-Infinity, -Infinity, -Infinity];
    for (const primitive of gltf.meshes?.[node.mesh]?.primitives ?? []) {
      const accessor = primitive.attributes.POSITION === undefined ? undefined : gltf.accessors?.[primitive.attributes.POSITION];
      if (!accessor?.min || !accessor.max) continue;
      for (let corner = 0; corner < 8; corner++) {
        const local = [0, 1, 2].map((axis) => ((corner >> axis) & 1 ? accessor.max![axis]! : accessor.min![axis]!));
        const [gx, gy, gz] = transform(world, local) as [number, number, number];
        const blender = [gx, -gz, gy];
        for (let axis = 0; axis < 3; axis++) {
          low[axis] = Math.min(low[axis]!, blender[axis]!);
          high[axis] = Math.max(high[axis]!, blender[axis]!);
        }
      }
    }
    if (low[0]! <= high[0]!) bounds.set(node.name, { min: low.map(round4) as Vec3, max: high.map(round4) as Vec3 });
  });
  return bounds;
}

function walk(gltf: Gltf, visit: (node: GltfNode, world: Mat4) => void): void {
  const nodes = gltf.nodes ?? [];
  const roots = gltf.scenes?.[gltf.scene ?? 0]?.nodes ?? nodes.map((_, i) => i);
  const visitNode = (index: number, parent: Mat4, depth: number): void => {
    const node = nodes[index];
    if (!node || depth > 64) return;
    const world = multiply(parent, localMatrix(node));
    visit(node, world);
    for (const child of node.children ?? []) visitNode(child, world, depth + 1);
  };
  for (const root of roots) visitNode(root, IDENTITY, 0);
}

const IDENTITY: Mat4 = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

function localMatrix(node: GltfNode): Mat4 {
  if (node.matrix?.length === 16) return node.matrix;
  const [tx, ty, tz] = node.translation ?? [0, 0, 0];
  const [x, y, z, w] = node.rotation ?? [0, 0, 0, 1];
  const [sx, sy, sz] = node.scale ?? [1, 1, 1];
  const r = [
    1 - 2 * (y! * y! + z! * z!), 2 * (x! * y! + z! * w!), 2 * (x! * z! - y! * w!),
    2 * (x! * y! - z! * w!), 1 - 2 * (x! * x! + z! * z!), 2 * (y! * z! + x! * w!),
    2 * (x! * z! + y! * w!), 2 * (y! * z! - x! * w!), 1 - 2 * (x! * x! + y! * y!),
  ];
  return [r[0]! * sx!, r[1]! * sx!, r[2]! * sx!, 0, r[3]! * sy!, r[4]! * sy!, r[5]! * sy!, 0, r[6]! * sz!, r[7]! * sz!, r[8]! * sz!, 0, tx!, ty!, tz!, 1];
}

function multiply(a: Mat4, b: Mat4): Mat4 {
  const out = new Array<number>(16).fill(0);
  for (let col = 0; col < 4; col++) {
    for (let row = 0; row < 4; row++) {
      let sum = 0;
      for (let k = 0; k < 4; k++) sum += a[k * 4 + row]! * b[col * 4 + k]!;
      out[col * 4 + row] = sum;
    }
  }
  return out;
}

function transform(m: Mat4, p: number[]): number[] {
  return [0, 1, 2].map((row) => m[row]! * p[0]! + m[4 + row]! * p[1]! + m[8 + row]! * p[2]! + m[12 + row]!);
}

/** An 8-bit RGB or RGBA PNG's pixels (zlib and the five scanline filters, by hand). */
export function decodePng(png: Uint8Array): { width: number; height: number; channels: number; pixels: Buffer } {
  const data = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  if (data.length < 8 || data.readUInt32BE(0) !== 0x89504e47) throw new Error('the export is not a PNG file');
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  for (let at = 8; at + 8 <= data.length; ) {
    const length = data.readUInt32BE(at);
    const type = data.toString('latin1', at + 4, at + 8);
    const body = data.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      if (body[8] !== 8 || (body[9] !== 2 && body[9] !== 6) || body[12] !== 0) throw new Error(`unsupported PNG: bit depth ${body[8]}, colour type ${body[9]}, interlace ${body[12]}`);
      channels = body[9] === 6 ? 4 : 3;
    }
    if (type === 'IDAT') idat.push(body);
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    for (let x = 0; x < stride; x++) {
      const value = raw[y * (stride + 1) + 1 + x]!;
      const left = x >= channels ? pixels[y * stride + x - channels]! : 0;
      const up = y > 0 ? pixels[(y - 1) * stride + x]! : 0;
      const upLeft = x >= channels && y > 0 ? pixels[(y - 1) * stride + x - channels]! : 0;
      const predictor = [0, left, up, (left + up) >> 1, paeth(left, up, upLeft)][filter]!;
      pixels[y * stride + x] = (value + predictor) & 0xff;
    }
  }
  return { width, height, channels, pixels };
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/**
 * Where a world point falls in the frame of a Blender camera (no parent; rotation XYZ Euler in
 * degrees; looking down its local -z with +y up; a 36 mm sensor fitted to the wider side of a
 * `width` x `height` frame, as the png export renders it): x and y from -1 to 1 inside the frame,
 * and whether the point is in front of the camera.
 */
/** The direction a light or camera with this XYZ Euler rotation (degrees) points: its local -z in the world. */
export function pointing(rotation: Vec3): Vec3 {
  const r = eulerMatrix(rotation);
  return [-r[6]!, -r[7]!, -r[8]!];
}

function eulerMatrix(rotation: Vec3): number[] {
  const [ax, ay, az] = rotation.map((d) => (d * Math.PI) / 180) as Vec3;
  const rx = [1, 0, 0, 0, Math.cos(ax), Math.sin(ax), 0, -Math.sin(ax), Math.cos(ax)]; // columns
  const ry = [Math.cos(ay), 0, -Math.sin(ay), 0, 1, 0, Math.sin(ay), 0, Math.cos(ay)];
  const rz = [Math.cos(az), Math.sin(az), 0, -Math.sin(az), Math.cos(az), 0, 0, 0, 1];
  return mul3(rz, mul3(ry, rx)); // Blender's XYZ Euler: X first, then Y, then Z
}

export function projectToFrame(camera: { location: Vec3; rotation: Vec3; lens: number }, point: Vec3, width = 320, height = 240): { x: number; y: number; inFront: boolean } {
  const r = eulerMatrix(camera.rotation);
  const d = [0, 1, 2].map((i) => point[i]! - camera.location[i]!);
  const along = (col: number): number => r[col * 3]! * d[0]! + r[col * 3 + 1]! * d[1]! + r[col * 3 + 2]! * d[2]!;
  const right = along(0);
  const up = along(1);
  const depth = -along(2);
  const half = 18 / camera.lens; // half the sensor width over the focal length
  const [halfX, halfY] = width >= height ? [half, (half * height) / width] : [(half * width) / height, half];
  return depth > 0 ? { x: right / depth / halfX, y: up / depth / halfY, inFront: true } : { x: 0, y: 0, inFront: false };
}

function mul3(a: number[], b: number[]): number[] {
  const out = new Array<number>(9).fill(0);
  for (let col = 0; col < 3; col++) {
    for (let row = 0; row < 3; row++) {
      let sum = 0;
      for (let k = 0; k < 3; k++) sum += a[k * 3 + row]! * b[col * 3 + k]!;
      out[col * 3 + row] = sum;
    }
  }
  return out;
}

export function round4(value: number): number {
  const rounded = Math.round(value * 1e4) / 1e4;
  return rounded === 0 ? 0 : rounded;
}
