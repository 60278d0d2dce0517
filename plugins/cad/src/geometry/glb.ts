/**
 * A binary glTF 2.0 (GLB) of one triangle mesh, written directly: a header, a JSON chunk and a
 * binary chunk with positions, normals and indices. glTF is Y-up in metres and CAD parts are Z-up
 * in millimetres, so the single node carries the rotation and the scale; three.js's GLTFLoader
 * (the web page's viewer) reads it as it is.
 */
export type TriangleMesh = { positions: Float32Array; normals: Float32Array; indices: Uint32Array };

const FLOAT = 5126;
const UNSIGNED_INT = 5125;
const ARRAY_BUFFER = 34962;
const ELEMENT_ARRAY_BUFFER = 34963;
/** -90° about X: CAD's +Z becomes glTF's +Y. */
const Z_UP_TO_Y_UP = [-Math.SQRT1_2, 0, 0, Math.SQRT1_2];
const MM_TO_M = 0.001;

export function writeGlb(mesh: TriangleMesh, name: string): Uint8Array {
  const views = [mesh.positions, mesh.normals, mesh.indices];
  let offset = 0;
  const bufferViews = views.map((data, i) => {
    const view = { buffer: 0, byteOffset: offset, byteLength: data.byteLength, target: i === 2 ? ELEMENT_ARRAY_BUFFER : ARRAY_BUFFER };
    offset += pad4(data.byteLength);
    return view;
  });
  const vertexCount = mesh.positions.length / 3;
  const gltf = {
    asset: { version: '2.0', generator: 'cowork cad plugin' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ mesh: 0, name, rotation: Z_UP_TO_Y_UP, scale: [MM_TO_M, MM_TO_M, MM_TO_M] }],
    meshes: [{ name, primitives: [{ attributes: { POSITION: 0, NORMAL: 1 }, indices: 2, material: 0, mode: 4 }] }],
    materials: [{ name: 'part', pbrMetallicRoughness: { baseColorFactor: [0.72, 0.74, 0.78, 1], metallicFactor: 0.2, roughnessFactor: 0.6 } }],
    buffers: [{ byteLength: offset }],
    bufferViews,
    accessors: [
      { bufferView: 0, componentType: FLOAT, count: vertexCount, type: 'VEC3', ...bounds(mesh.positions) },
      { bufferView: 1, componentType: FLOAT, count: vertexCount, type: 'VEC3' },
      { bufferView: 2, componentType: UNSIGNED_INT, count: mesh.indices.length, type: 'SCALAR' },
    ],
  };
  const json = new TextEncoder().encode(JSON.stringify(gltf));
  const jsonLength = pad4(json.length);
  const total = 12 + 8 + jsonLength + 8 + offset;
  const out = new Uint8Array(total);
  const header = new DataView(out.buffer);
  header.setUint32(0, 0x46546c67, true); // 'glTF'
  header.setUint32(4, 2, true);
  header.setUint32(8, total, true);
  header.setUint32(12, jsonLength, true);
  header.setUint32(16, 0x4e4f534a, true); // 'JSON'
  out.set(json, 20);
  out.fill(0x20, 20 + json.length, 20 + jsonLength); // the JSON chunk is padded with spaces
  const binStart = 20 + jsonLength;
  header.setUint32(binStart, offset, true);
  header.setUint32(binStart + 4, 0x004e4942, true); // 'BIN\0'
  views.forEach((data, i) => out.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), binStart + 8 + bufferViews[i]!.byteOffset));
  return out;
}

function bounds(positions: Float32Array): { min: number[]; max: number[] } {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i++) {
    const axis = i % 3;
    min[axis] = Math.min(min[axis]!, positions[i]!);
    max[axis] = Math.max(max[axis]!, positions[i]!);
  }
  return { min, max };
}

function pad4(n: number): number {
  return Math.ceil(n / 4) * 4;
}
