/**
 * The content of an `office.presentation` resource: a deck title and slides in order. Every slide
 * has a stable `id` that ops address, so that two people (or a person and an agent) editing
 * different slides make ops that still apply after the other's commit.
 */
export type SlideLayout = 'title' | 'title_and_bullets' | 'title_only' | 'blank';

/** A bullet point; `level` 0 is the outermost, each level one indent deeper. */
export type Bullet = { text: string; level: number };

export type Slide = {
  id: string;
  layout: SlideLayout;
  title: string;
  bullets: Bullet[];
  /** Speaker notes, plain text. */
  notes: string;
};

export type Presentation = { title: string; slides: Slide[] };

export const SLIDE_LAYOUTS: readonly SlideLayout[] = ['title', 'title_and_bullets', 'title_only', 'blank'];

/** Bullets nest at most this deep (levels 0 to MAX_BULLET_LEVEL), as PowerPoint's outline does. */
export const MAX_BULLET_LEVEL = 4;

export const SLIDE_ID_SCHEMA = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' } as const;

export const BULLET_SCHEMA = {
  type: 'object',
  properties: {
    text: { type: 'string' },
    level: { type: 'integer', minimum: 0, maximum: MAX_BULLET_LEVEL },
  },
  required: ['text', 'level'],
  additionalProperties: false,
} as const;

export const BULLETS_SCHEMA = { type: 'array', items: BULLET_SCHEMA } as const;

export const SLIDE_SCHEMA = {
  type: 'object',
  properties: {
    id: SLIDE_ID_SCHEMA,
    layout: { enum: [...SLIDE_LAYOUTS] },
    title: { type: 'string' },
    bullets: BULLETS_SCHEMA,
    notes: { type: 'string' },
  },
  required: ['id', 'layout', 'title', 'bullets', 'notes'],
  additionalProperties: false,
} as const;

export const PRESENTATION_SCHEMA = {
  type: 'object',
  properties: {
    title: { type: 'string' },
    slides: { type: 'array', items: SLIDE_SCHEMA },
  },
  required: ['title', 'slides'],
  additionalProperties: false,
} as const;

/** Problems with a bullet list the schema cannot see: a level may go at most one deeper than the one before. */
export function bulletProblems(bullets: readonly Bullet[]): string[] {
  const problems: string[] = [];
  let previous = -1;
  bullets.forEach((bullet, index) => {
    if (bullet.level > previous + 1) {
      problems.push(`bullet ${index} has level ${bullet.level} but may be at most ${previous + 1} (one deeper than the bullet before)`);
    }
    previous = bullet.level;
  });
  return problems;
}
