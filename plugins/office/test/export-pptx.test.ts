// Invariant: the pptx export is a real zip (read back with `unzip`), with one ppt/slides/slideN.xml
// per slide of the deck, and each slide's XML holds that slide's title.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Host } from '@cowork/host';
import { plugin } from '../src';
import { deck, slide } from './deck';

describe('office.presentation pptx export', () => {
  let dir: string;
  let host: Host;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cowork-office-pptx-'));
    host = await Host.open({ workspaceDir: join(dir, 'ws'), plugins: [plugin] });
  });

  afterEach(async () => {
    await host.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes one slide XML per slide, holding its title', async () => {
    const content = deck();
    content.slides.push(slide('end', 'Thanks & questions', { layout: 'title_only' }));
    const r = await host.resources.create({ kind: 'office.presentation', content, operator: 'human:ann' });
    const result = await host.exports.export(r.id, 'pptx');
    expect(result.mediaType).toBe('application/vnd.openxmlformats-officedocument.presentationml.presentation');
    expect(result.fileName).toMatch(/\.pptx$/);

    const file = join(dir, 'deck.pptx');
    writeFileSync(file, result.data);
    const names = execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).split('\n');
    const slideFiles = names.filter((n) => /^ppt\/slides\/slide\d+\.xml$/.test(n));
    expect(slideFiles).toHaveLength(content.slides.length);

    content.slides.forEach((s, i) => {
      const xml = execFileSync('unzip', ['-p', file, `ppt/slides/slide${i + 1}.xml`], { encoding: 'utf8' });
      expect(xml).toContain(s.title.replace('&', '&amp;'));
    });
    const second = execFileSync('unzip', ['-p', file, 'ppt/slides/slide2.xml'], { encoding: 'utf8' });
    expect(second).toContain('in Europe');
  });
});
