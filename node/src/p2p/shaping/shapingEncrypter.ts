/**
 * The shaping layer's place in libp2p: a connection encrypter around the real one (noise) that,
 * once a connection is secured and its remote peer known, shapes its plaintext in both directions
 * (linkShaping.ts): what it decrypted before the muxer (yamux) reads it, what the muxer writes
 * before it is encrypted. Below gossipsub, block sync, identify and ping alike, above TCP; the
 * handshake itself is not shaped (a connection is made as fast as on a clear link).
 */
import type { ConnectionEncrypter, SecuredConnection } from '@libp2p/interface';
import type { LinkShaping } from './linkShaping.js';

type Duplex = {
  source: AsyncIterable<{ byteLength: number }>;
  sink: (source: AsyncIterable<{ byteLength: number }>) => Promise<void>;
};

/** `make` (noise()) with every connection it secures shaped by `shaping`. */
export function shapingEncrypter<C>(
  make: (components: C) => ConnectionEncrypter,
  shaping: LinkShaping,
): (components: C) => ConnectionEncrypter {
  return (components) => {
    const inner = make(components);
    const shape = <S>(secured: SecuredConnection<S>): SecuredConnection<S> => {
      const peer = secured.remotePeer.toString();
      // Noise hands back the connection object it was given, its source and sink replaced by the
      // secured ones; they are replaced once more here.
      const conn = secured.conn as unknown as Duplex;
      const source = conn.source;
      const sink = conn.sink.bind(conn);
      conn.source = shaping.pipe(source, peer, 'in');
      conn.sink = (out) => sink(shaping.pipe(out, peer, 'out'));
      return secured;
    };
    return {
      protocol: inner.protocol,
      secureInbound: (connection, options) => inner.secureInbound(connection, options).then(shape),
      secureOutbound: (connection, options) => inner.secureOutbound(connection, options).then(shape),
    } as ConnectionEncrypter;
  };
}
