/**
 * A loopback port nobody listens on now, chosen by the system, for a server a test or a benchmark
 * starts. A fixed port would meet whatever was left listening on it (another run's server), and the
 * run would then fail to start, or talk to that server instead of its own.
 * @returns {Promise<number>}
 */
export function freePort(): Promise<number>;
/**
 * Whether nothing listens on a loopback port now.
 * @param {number} port
 * @returns {Promise<boolean>}
 */
export function portIsFree(port: number): Promise<boolean>;
/**
 * An offset that moves every given port onto free ones (`npm run dev`'s DEV_PORT_OFFSET), tried
 * from `first` upwards by steps of 100.
 * @param {readonly number[]} ports
 * @param {number} [first]
 * @returns {Promise<number>}
 */
export function freeOffset(ports: readonly number[], first?: number): Promise<number>;
