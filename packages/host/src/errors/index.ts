export { ERROR_CODES, isErrorCode, type ErrorCode, type ErrorCodeInfo } from './codes';
export { CoworkError, isCoworkError, toCoworkError, type ErrorDetails } from './cowork-error';
