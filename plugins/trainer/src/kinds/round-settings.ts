/**
 * A round's settings and their ranges: one table for the kind's schemas (round-kind.ts) and the
 * page's number fields (round-view.ts), so the page's bounds are the ones the commit enforces. Its
 * own module because the kind imports the view.
 */
export const SETTINGS_PROPERTIES = {
  steps: { type: 'integer', minimum: 1, maximum: 1_000_000 },
  lr: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
  batch: { type: 'integer', minimum: 1, maximum: 4096 },
  seed: { type: 'integer', minimum: 0 },
  threads: { type: 'integer', minimum: 1, maximum: 64 },
} as const;

export type SettingName = keyof typeof SETTINGS_PROPERTIES;

export const SETTING_NAMES = Object.keys(SETTINGS_PROPERTIES) as SettingName[];
