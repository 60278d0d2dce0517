import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExportFormat } from '@cowork/host';
import type { BlenderProcess } from './bridge/blender-process';
import type { Scene } from './content';
import { contentKey, type SceneQueue } from './scene-queue';
import { openSession } from './session';

type Format = 'blend' | 'glb' | 'png';

const FORMATS: Record<Format, { mediaType: string; description: string }> = {
  blend: { mediaType: 'application/x-blender', description: 'The scene as a Blender 3.4 .blend file.' },
  glb: { mediaType: 'model/gltf-binary', description: 'The scene as binary glTF (meshes, materials, cameras and lights).' },
  png: { mediaType: 'image/png', description: 'A 320x240 preview rendered with Cycles on the CPU (16 samples), from the active camera or one that frames the scene.' },
};

/**
 * The kind's exports. An export gets a content, not a Blender: when this host process has the
 * resource's Blender open and it shows exactly that content, the export runs there (a `.blend`
 * is saved as a copy, so the file Blender restarts from stays the last save); otherwise (an older
 * revision, or no open session) a short-lived Blender builds the scene from the content and exports
 * it. Meshes someone made in Blender are only boxes of their size in such a rebuild.
 *
 * Exports go through `queue`: one at a time per resource, identical ones (format and content)
 * sharing one result, short-lived Blenders capped, waits bounded (`busy`). An export never opens the
 * resource's session: that takes the host's lease on the scene's Blender (see README).
 */
export function sceneExports(queue: SceneQueue): Record<Format, ExportFormat<Scene>> {
  return { blend: exportFormat(queue, 'blend'), glb: exportFormat(queue, 'glb'), png: exportFormat(queue, 'png') };
}

function exportFormat(queue: SceneQueue, format: Format): ExportFormat<Scene> {
  return {
    ...FORMATS[format],
    extension: format,
    export: async (content, context) => {
      const data = await queue.run(context.resourceId, `${format} ${contentKey(content)}`, context.signal, async ({ dir, shortLived }) => {
        const file = join(dir, `scene.${format}`);
        const write = (process: BlenderProcess): Promise<void> =>
          format === 'blend' ? process.save(file, true) : format === 'glb' ? process.exportGlb(file) : process.renderPng(file);
        const live = await openSession(context.resourceId)?.withScene(content, write);
        if (!live) await write(await shortLived(content));
        return readFileSync(file);
      });
      return Buffer.from(data); // requests sharing a result each get their own copy
    },
  };
}
