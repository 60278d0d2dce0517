import type { FastifyReply } from 'fastify';

/**
 * A signal that aborts when the client goes away before its answer was sent, so that long work
 * for it (an export waiting for LibreOffice or Blender) leaves its queue or stops.
 */
export function abortedWhenClientLeaves(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort(new Error('the client closed the connection before the answer was sent'));
  });
  return controller.signal;
}
