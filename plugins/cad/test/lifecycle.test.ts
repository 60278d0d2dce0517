// Invariant: a long-lived host with the CAD plugin loads OpenCascade when it starts (so the first
// request does not wait for the WASM), a short command's host does not, and closing the last host
// stops the CAD worker; a host closing while another still uses the kernel leaves it running.
import { openTempHost, type TempHost } from '@cowork/host/testkit';
import { plugin, sharedKernel } from '../src';

const open = (options: { pollMonitors?: boolean } = {}): Promise<TempHost> => openTempHost({ plugins: [plugin], prefix: 'cowork-cad-life-', ...options });

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 600 && !condition(); i++) await new Promise((done) => setTimeout(done, 50));
  if (!condition()) throw new Error(`timed out waiting until ${what}`);
}

it('leaves the kernel stopped for a short command', async () => {
  const host = await open({ pollMonitors: false });
  expect(sharedKernel().state()).toBe('stopped');
  await host.dispose();
  expect(sharedKernel().state()).toBe('stopped');
});

it('loads OpenCascade when a long-lived host starts, and stops it when the last host closes', async () => {
  const first = await open();
  expect(sharedKernel().state()).toBe('loading');
  await until(() => sharedKernel().state() === 'ready', 'the kernel is ready');

  const second = await open();
  await first.dispose();
  expect(sharedKernel().state()).toBe('ready');
  const part = await second.resources.create({ kind: 'cad.part', operator: 'human:ann' });
  const step = await second.exports.export(part.id, 'step');
  expect(Buffer.from(step.data).toString('latin1')).toContain('ISO-10303-21');

  await second.dispose();
  expect(sharedKernel().state()).toBe('stopped');
});
