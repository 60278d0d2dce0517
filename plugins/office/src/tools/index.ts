import type { ToolDefinition } from '@cowork/host';
import { lintTool } from './lint-tool';
import { previewTool } from './preview-tool';

/** The office plugin's agent tools: look at a rendered deck or document, and lint it. */
export const officeTools: readonly ToolDefinition[] = [previewTool, lintTool];
