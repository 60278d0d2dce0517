import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExportFormat } from '@cowork/host';
import { BlenderProcess, childLauncher, socketPathFor } from './bridge/blender-process';
import type { Scene } from './content';
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
 */
export const sceneExports: Record<Format, ExportFormat<Scene>> = {
  blend: exportFormat('blend'),
  glb: exportFormat('glb'),
  png: exportFormat('png'),
};

function exportFormat(format: Format): ExportFormat<Scene> {
  return {
    ...FORMATS[format],
    extension: format,
    export: async (content, context) => {
      context.signal.throwIfAborted();
      const file = join(context.workDir, `scene.${format}`);
      const write = (process: BlenderProcess): Promise<void> =>
        format === 'blend' ? process.save(file, true) : format === 'glb' ? process.exportGlb(file) : process.renderPng(file);
      const live = await openSession(context.resourceId)?.withScene(content, write);
      if (!live) await withSceneBlender(content, context.workDir, context.signal, write);
      return readFileSync(file);
    },
  };
}

/** Runs `fn` in a short-lived Blender that holds `content`; it is killed when `signal` aborts. */
export async function withSceneBlender<T>(content: Scene, workDir: string, signal: AbortSignal, fn: (process: BlenderProcess) => Promise<T>): Promise<T> {
  const process = await BlenderProcess.start(childLauncher, { socketPath: socketPathFor(workDir), cwd: workDir, name: 'blender (export)' });
  const abort = (): void => void process.launched.kill();
  signal.addEventListener('abort', abort, { once: true });
  try {
    await process.load(content);
    signal.throwIfAborted();
    return await fn(process);
  } finally {
    signal.removeEventListener('abort', abort);
    await process.stop();
  }
}
