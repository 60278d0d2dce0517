import { rejectOp } from '@cowork/host';
import { isStyled, retextRuns } from '../shared/runs';
import { MAX_BULLET_LEVEL, type Bullet } from './content';

/**
 * Bullets as a person edits them in the page: one line per bullet, indented two spaces (or a tab)
 * per level, as the view shows them. Blank lines are dropped.
 */
export function bulletLine(bullet: Bullet): string {
  return `${'  '.repeat(bullet.level)}${bullet.text}`;
}

/**
 * The bullets `lines` spell. A bullet whose position and level stay keeps its styled runs
 * (re-spelt to the new text), so editing one word in the page does not drop the bold on another.
 */
export function bulletsFromLines(lines: readonly string[], before: readonly Bullet[]): Bullet[] {
  return lines
    .filter((line) => line.trim() !== '')
    .map((line, i) => {
      const indent = /^[ \t]*/.exec(line)![0];
      const level = indent.split('\t').length - 1 + Math.floor(indent.replace(/\t/g, '').length / 2);
      if (level > MAX_BULLET_LEVEL) throw rejectOp(`line ${i + 1} is indented ${level} levels; bullets nest at most ${MAX_BULLET_LEVEL} levels deep`, { line: i + 1 });
      const text = line.trim();
      const old = before[i];
      const runs = old?.runs && old.level === level ? retextRuns(old.runs, text) : undefined;
      return runs?.some(isStyled) ? { text, level, runs } : { text, level };
    });
}
