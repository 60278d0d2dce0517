/**
 * An `external` kind whose "application" is a plain object in the test (a list of shapes), standing
 * in for Blender; the plugin tests of blender-bridge run the real one. A test changes `shapes` to
 * play a person working in the application, and sets the flags to crash or fail it.
 */
import { definePlugin, defineKind, rejectOp } from '../../src/plugins/define-plugin';
import type { ExternalSession } from '../../src/plugins/external';

export type Scene = { shapes: string[] };
export type SceneOp = { type: 'add'; name: string } | { type: 'remove'; name: string };

/** The outside application: state the host does not own, changed by ops and by "people" directly. */
export class FakeApp {
  shapes: string[] = [];
  saved: { shapes: string[]; revision: number } | undefined;
  crashed = false;
  failNextApply = false;
  opens = 0;
  /** While set, an op waits for it before it is performed (an application busy with a slow op). */
  holdApply: Promise<void> | undefined;
  /** Told each time an op starts in the application. */
  onApply: (() => void) | undefined;
}

export function scenePlugin(app: FakeApp) {
  const kind = defineKind<Scene, SceneOp>({
    name: 'scene.ext',
    description: 'A scene held by an outside application',
    revisionSemantics: 'external',
    contentSchema: { type: 'object', properties: { shapes: { type: 'array', items: { type: 'string' } } }, required: ['shapes'], additionalProperties: false },
    opSchema: { type: 'object', properties: { type: { enum: ['add', 'remove'] }, name: { type: 'string', minLength: 1 } }, required: ['type', 'name'] },
    initialContent: () => ({ shapes: [] }),
    applyOp(content, op) {
      if (op.type === 'remove' && !content.shapes.includes(op.name)) throw rejectOp(`no shape ${op.name}; shapes: ${content.shapes.join(', ')}`);
      return { shapes: op.type === 'add' ? [...content.shapes, op.name] : content.shapes.filter((s) => s !== op.name) };
    },
    summarize: (content) => content.shapes.join(', '),
    diff: (a, b) => `${a.shapes.length} → ${b.shapes.length} shapes`,
    external: {
      async open(resource): Promise<ExternalSession<Scene, SceneOp>> {
        app.opens += 1;
        if (app.opens === 1) app.shapes = [...resource.content.shapes];
        return {
          async apply(op, { revision }) {
            app.onApply?.();
            await app.holdApply;
            if (app.failNextApply) {
              app.failNextApply = false;
              throw new Error('the application stopped answering');
            }
            if (op.type === 'remove' && !app.shapes.includes(op.name)) throw rejectOp(`the application has no shape ${op.name}`);
            app.shapes = op.type === 'add' ? [...app.shapes, op.name] : app.shapes.filter((s) => s !== op.name);
            if (op.name.startsWith('save')) app.saved = { shapes: [...app.shapes], revision };
            return { content: { shapes: [...app.shapes] } };
          },
          async observe() {
            if (!app.crashed) return { content: { shapes: [...app.shapes] } };
            app.crashed = false;
            app.shapes = [...(app.saved?.shapes ?? [])];
            return { content: { shapes: [...app.shapes] }, note: 'restarted from the last save', restoredFrom: app.saved?.revision ?? 0 };
          },
          async close() {},
        };
      },
    },
  });
  return definePlugin({ name: 'scene-app', version: '1.0.0', kinds: [kind as never] });
}
