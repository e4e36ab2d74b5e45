// Types of node-flags.js (plain JavaScript: the bin reads it before TypeScript can be loaded).
export declare const serviceNodeFlags: readonly string[];
export declare const workerNodeFlags: readonly string[];
export declare const serviceMallocTunables: string;
export declare function serviceEnv(env?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
