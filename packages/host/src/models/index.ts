/** Model providers behind one interface; see `types.ts` for the contract the loop relies on. */
export type {
  ChatMessage,
  FinishReason,
  ModelProvider,
  ModelRequest,
  ModelResponse,
  ReasoningEffort,
  TokenUsage,
  ToolCall,
  ToolSpec,
} from './types';
export { OpenAiCompatibleProvider, type OpenAiProviderOptions, type RetryInfo } from './openai-provider';
export { RecordingProvider, ReplayProvider, type ReplayOptions } from './recording';
export { MODEL_ENV, createModelProvider, modelConfigFromEnv, type ModelConfig } from './config';
export { estimateRequestTokens, estimateTokens } from './estimate';
export { charEstimateTokenizer, encodingForModel, tokenizerFor, type TokenEncodingName, type Tokenizer } from './tokenizer';
