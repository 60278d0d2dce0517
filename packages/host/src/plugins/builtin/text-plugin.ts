import { definePlugin } from '../define-plugin';
import { textKind } from './text-kind';

/** The host's own plugin: the `text` kind, loaded always. */
export const textPlugin = definePlugin({
  name: 'text',
  version: '0.1.0',
  description: 'Plain text resources; the reference implementation of a resource kind.',
  kinds: [textKind],
});
