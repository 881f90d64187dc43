/** The composition root's one stack of closers: reverse order, once, every closer run though one throws. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CloserStack } from '../../../src/main/closers.js';

describe('CloserStack', () => {
  it('closes the parts in reverse order of start, once however often it is asked', async () => {
    const stack = new CloserStack();
    const closed: string[] = [];
    for (const part of ['store', 'rpc', 'p2p'])
      stack.defer(part, async () => {
        closed.push(part);
      });
    await Promise.all([stack.close(), stack.close()]);
    await stack.close();
    assert.deepEqual(closed, ['p2p', 'rpc', 'store']);
  });

  it('runs the earlier closers when one throws, then throws its error', async () => {
    const stack = new CloserStack();
    const closed: string[] = [];
    stack.defer('store', () => {
      closed.push('store');
    });
    stack.defer('p2p', () => {
      throw new Error('p2p would not stop');
    });
    await assert.rejects(stack.close(), /p2p would not stop/);
    assert.deepEqual(closed, ['store']);
  });

  it('refuses a part that starts once stopping has begun', async () => {
    const stack = new CloserStack();
    await stack.close();
    assert.throws(() => stack.defer('late', () => {}), /late started while the node stops/);
  });
});
