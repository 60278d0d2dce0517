// Run by preview-exports.test.ts with a PATH that holds no soffice: exports a deck to pdf through a
// real Host and prints the error it gets, as JSON, on stdout.
import { isCoworkError } from '@cowork/host';
import { Host } from '@cowork/host/embed';
import { plugin } from '../src';
import { deck } from './deck';

async function main(workspaceDir: string): Promise<void> {
  const host = await Host.open({ workspaceDir, plugins: [plugin] });
  try {
    const r = await host.resources.create({ kind: 'office.presentation', content: deck(), operator: 'human:ann' });
    await host.exports.export(r.id, 'pdf');
    process.stdout.write(JSON.stringify({ code: 'none' }));
  } catch (error) {
    process.stdout.write(JSON.stringify(isCoworkError(error) ? { ...error.details, code: error.code, message: error.message } : { code: 'thrown', message: String(error) }));
  } finally {
    await host.close();
  }
}

void main(process.argv[2]!);
