import { closeSync, fstatSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { openContained, resolveInWorkspace } from '../util/paths';

/**
 * Skills are markdown files in `<workspace>/skills/`. Each starts with a small front matter:
 *
 *     ---
 *     name: make-slides
 *     description: How to lay out a title slide and bullets.
 *     ---
 *     (body)
 *
 * Subagents see the catalog (names and descriptions) and load a body on demand, so the context
 * carries only what the assignment needs.
 */
export interface SkillEntry {
  readonly name: string;
  readonly description: string;
  readonly file: string;
}

export function skillsDir(workspaceDir: string): string {
  return join(workspaceDir, 'skills');
}

export function listSkills(workspaceDir: string): SkillEntry[] {
  let files: string[];
  try {
    // The folder and each file go through the one containment check (util/paths): a skill that is a
    // symlink out of the workspace (or a skills folder that is one) is skipped, never read.
    files = readdirSync(resolveInWorkspace(workspaceDir, 'skills', 'skills')).filter((f) => f.endsWith('.md'));
  } catch {
    return [];
  }
  const skills: SkillEntry[] = [];
  for (const file of files.sort()) {
    const text = readSkillFile(workspaceDir, file);
    if (text === undefined) continue;
    const { meta } = parseSkill(text);
    skills.push({ name: meta.name ?? basename(file, '.md'), description: meta.description ?? '', file: join(skillsDir(workspaceDir), file) });
  }
  return skills;
}

export function loadSkill(workspaceDir: string, name: string): string | undefined {
  const entry = listSkills(workspaceDir).find((s) => s.name === name);
  const text = entry && readSkillFile(workspaceDir, basename(entry.file));
  return text === undefined ? undefined : parseSkill(text).body;
}

/** A skill file's text, opened inside the workspace (see openContained), or undefined when it is refused or unreadable. */
function readSkillFile(workspaceDir: string, file: string): string | undefined {
  let fd: number;
  try {
    fd = openContained(workspaceDir, `skills/${file}`, 'skill', { baseName: 'the workspace', outsideReason: 'outside_workspace' }).fd;
  } catch {
    return undefined;
  }
  try {
    return fstatSync(fd).isFile() ? readFileSync(fd, 'utf8') : undefined;
  } finally {
    closeSync(fd);
  }
}

export function skillCatalog(workspaceDir: string): string {
  const skills = listSkills(workspaceDir);
  if (skills.length === 0) return 'No skills are available.';
  return skills.map((s) => `- ${s.name}: ${s.description}`).join('\n');
}

function parseSkill(text: string): { meta: Record<string, string>; body: string } {
  const match = /^---\n([\s\S]*?)\n---\n?([\s\S]*)$/.exec(text);
  if (!match) return { meta: {}, body: text };
  const meta: Record<string, string> = {};
  for (const line of match[1]!.split('\n')) {
    const kv = /^([A-Za-z_-]+):\s*(.*)$/.exec(line);
    if (kv) meta[kv[1]!] = kv[2]!.trim();
  }
  return { meta, body: match[2]! };
}
