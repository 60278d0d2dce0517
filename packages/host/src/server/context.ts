import type { Host } from '../host';
import type { Operator } from '../store/records';
import type { Credentials } from './credentials';
import type { UserDirectory } from '../identity/user-directory';
import type { TaskRunner } from './task-runner';
import './fastify-types';

/** What the route modules share; one per server, handed to each `register...Routes`. */
export interface ServerContext {
  readonly host: Host;
  readonly tasks: TaskRunner;
  readonly credentials: Credentials;
  /** The people of the workspace and their tokens. */
  readonly users: UserDirectory;
  readonly token: string;
  /** Who creates a resource when the request does not say. */
  readonly defaultOperator: Operator;
  readonly version: string;
}
