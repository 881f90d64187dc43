/** The RPC's refusals whose detail the specification fixes word for word. */
import { HttpError } from '@chain-devnet/kit/http';

export const notInitialized = () => new HttpError(503, 'Node not initialized');
export const invalidTx = (reason: string) => new HttpError(400, 'Invalid transaction format', reason);
