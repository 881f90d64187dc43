// The types of launch.js (committed JavaScript: it runs before anything is built).
export declare const NOT_BUILT: number;
export declare function launch(name: string, program: URL): Promise<void>;
