// shared/ runs in browsers and in Node, so it gets neither DOM nor Node types. These are the few
// globals both provide that shared/ uses.
declare function structuredClone<T>(value: T): T;
declare class URL {
  constructor(url: string, base?: string);
  readonly protocol: string;
  readonly hostname: string;
}
