import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

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
    files = readdirSync(skillsDir(workspaceDir)).filter((f) => f.endsWith('.md'));
  } catch {
    return [];
  }
  return files.sort().map((file) => {
    const path = join(skillsDir(workspaceDir), file);
    const { meta } = parseSkill(readFileSync(path, 'utf8'));
    return { name: meta.name ?? basename(file, '.md'), description: meta.description ?? '', file: path };
  });
}

export function loadSkill(workspaceDir: string, name: string): string | undefined {
  const entry = listSkills(workspaceDir).find((s) => s.name === name);
  return entry && parseSkill(readFileSync(entry.file, 'utf8')).body;
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
