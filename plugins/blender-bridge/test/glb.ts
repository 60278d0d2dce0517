/** The names of the nodes three.js's GLTFLoader finds in a GLB: proof that three can read it. */
export async function gltfNodeNames(glb: Uint8Array): Promise<string[]> {
  const { GLTFLoader } = await import('three/examples/jsm/loaders/GLTFLoader.js');
  const buffer = glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength) as ArrayBuffer;
  const gltf = await new Promise<{ scene: { traverse(fn: (node: { name: string }) => void): void } }>((resolve, reject) =>
    new GLTFLoader().parse(buffer, '', resolve, reject),
  );
  const names: string[] = [];
  gltf.scene.traverse((node) => names.push(node.name));
  return names;
}
