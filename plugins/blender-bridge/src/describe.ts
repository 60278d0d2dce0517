import type { Material, Primitive, Scene, SceneObject, Vec3 } from './content';

/** Text for models and people: one line per object, then the materials. */
export function summarizeScene(scene: Scene): string {
  const counts = new Map<string, number>();
  for (const o of scene.objects) counts.set(o.type, (counts.get(o.type) ?? 0) + 1);
  const kinds = [...counts].map(([type, n]) => `${n} ${type}${n === 1 ? '' : type.endsWith('sh') ? 'es' : 's'}`).join(', ');
  const lines = [
    `Blender scene: ${scene.objects.length} object${scene.objects.length === 1 ? '' : 's'}${kinds ? ` (${kinds})` : ''}; active camera: ${scene.activeCamera ?? 'none'}.`,
    ...scene.objects.map((o) => `- ${describeObject(o)}`),
  ];
  if (scene.materials.length > 0) lines.push(`Materials: ${scene.materials.map(describeMaterial).join('; ')}.`);
  return lines.join('\n');
}

/** What changed, object by object (by name), then materials and the active camera. */
export function diffScenes(before: Scene, after: Scene): string {
  const lines: string[] = [];
  const old = new Map(before.objects.map((o) => [o.name, o]));
  const now = new Map(after.objects.map((o) => [o.name, o]));
  for (const o of after.objects) {
    const was = old.get(o.name);
    if (!was) lines.push(`+ added ${describeObject(o)}`);
    else {
      const changes = objectChanges(was, o);
      if (changes.length > 0) lines.push(`~ ${o.name}: ${changes.join('; ')}`);
    }
  }
  for (const o of before.objects) if (!now.has(o.name)) lines.push(`- removed ${o.name} (${o.type})`);
  const oldMaterials = new Map(before.materials.map((m) => [m.name, describeMaterial(m)]));
  for (const m of after.materials) {
    const text = describeMaterial(m);
    if (oldMaterials.get(m.name) !== text) lines.push(`~ material ${text}`);
  }
  if (before.activeCamera !== after.activeCamera) lines.push(`~ active camera: ${before.activeCamera ?? 'none'} -> ${after.activeCamera ?? 'none'}`);
  return lines.length > 0 ? lines.join('\n') : 'no change';
}

export function describeObject(o: SceneObject): string {
  const parts = [`${o.name}: ${kindOf(o)} at (${vec(o.location)})`];
  if (o.rotation.some((a) => a !== 0)) parts.push(`rotated (${vec(o.rotation)})°`);
  if (o.scale.some((s) => s !== 1)) parts.push(`scaled (${vec(o.scale)})`);
  if (o.mesh) parts.push(`size ${o.mesh.dimensions.join(' x ')} m`);
  if (o.mesh?.primitive && o.mesh.editHash) parts.push('geometry edited in Blender');
  if (o.parent) parts.push(`child of ${o.parent}`);
  if (o.materials.length > 0) parts.push(`material ${o.materials.join(', ')}`);
  if (o.modifiers.length > 0) parts.push(`modifiers ${o.modifiers.map((m) => `${m.name} (${m.type} ${JSON.stringify(m.params)})`).join(', ')}`);
  return parts.join(', ');
}

export function kindOf(o: SceneObject): string {
  if (o.mesh) return o.mesh.primitive ? `mesh ${describePrimitive(o.mesh.primitive)}` : 'mesh (made in Blender)';
  if (o.light) return `${o.light.type} light ${o.light.energy} W`;
  if (o.camera) return `camera ${o.camera.lens} mm`;
  return o.type;
}

function describePrimitive(p: Primitive): string {
  const { shape, ...params } = p;
  return `${shape} ${Object.entries(params).map(([k, v]) => `${k} ${v}`).join(' ')}`;
}

export function describeMaterial(m: Material): string {
  return `${m.name} (base color ${m.baseColor.join(', ')}, metallic ${m.metallic}, roughness ${m.roughness})`;
}

function objectChanges(a: SceneObject, b: SceneObject): string[] {
  const changes: string[] = [];
  const field = (label: string, x: unknown, y: unknown, show: (v: never) => string = String): void => {
    if (JSON.stringify(x) !== JSON.stringify(y)) changes.push(`${label} ${show(x as never)} -> ${show(y as never)}`);
  };
  field('location', a.location, b.location, (v: Vec3) => `(${vec(v)})`);
  field('rotation', a.rotation, b.rotation, (v: Vec3) => `(${vec(v)})°`);
  field('scale', a.scale, b.scale, (v: Vec3) => `(${vec(v)})`);
  field('size', a.mesh?.dimensions, b.mesh?.dimensions, (v?: Vec3) => (v ? v.join(' x ') : 'none'));
  if ((a.mesh?.editHash ?? null) !== (b.mesh?.editHash ?? null) && a.mesh && b.mesh) {
    changes.push(b.mesh.editHash === null ? 'mesh back to its primitive' : 'mesh geometry edited');
  }
  field('parent', a.parent, b.parent, (v: string | null) => v ?? 'none');
  field('materials', a.materials, b.materials, (v: string[]) => (v.length ? v.join(', ') : 'none'));
  field('modifiers', a.modifiers, b.modifiers, (v: SceneObject['modifiers']) => (v.length ? v.map((m) => `${m.name} (${m.type})`).join(', ') : 'none'));
  field('kind', kindOf(a), kindOf(b));
  return changes;
}

function vec(v: readonly number[]): string {
  return v.join(', ');
}
