/** The part of fs-native-extensions (an OS lock on a file descriptor) that db/lock.ts uses; it ships no types. */
declare module "fs-native-extensions" {
  /** A non-blocking lock on the whole file (exclusive unless `shared`): true if granted, false if held elsewhere. */
  export function tryLock(fd: number, options?: { shared?: boolean }): boolean;
  export function unlock(fd: number): void;
}
