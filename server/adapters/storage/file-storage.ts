import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { assertSafeKey, contentTypeOfKey, type ObjectStorage, type StoredObject } from './object-storage.ts';

/**
 * Objects as files under `root` (DATA_DIR/uploads): the key is the relative path. Every path is
 * resolved and checked to stay inside the root, whatever the key says. Writes go to a temporary
 * file in the same folder and are renamed into place, so a crash never leaves half a photo.
 */
export function createFileStorage(root: string): ObjectStorage {
  const uploadsRoot = path.resolve(root);

  function pathOf(key: string): string {
    assertSafeKey(key);
    const resolved = path.resolve(uploadsRoot, key);
    if (!resolved.startsWith(uploadsRoot + path.sep)) throw new Error(`Storage key ${JSON.stringify(key)} leaves the uploads folder`);
    return resolved;
  }

  return {
    async put(key, bytes) {
      const target = pathOf(key);
      await fs.mkdir(path.dirname(target), { recursive: true });
      const temporary = `${target}.${randomBytes(6).toString('hex')}.partial`;
      try {
        await fs.writeFile(temporary, bytes, { flag: 'wx' });
        await fs.rename(temporary, target);
      } catch (error) {
        await fs.rm(temporary, { force: true });
        throw error;
      }
    },

    async get(key): Promise<StoredObject | undefined> {
      const target = pathOf(key);
      try {
        const bytes = await fs.readFile(target);
        return { bytes, contentType: contentTypeOfKey(key) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },

    async open(key) {
      const target = pathOf(key);
      let handle;
      try {
        handle = await fs.open(target, 'r');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
      const { size } = await handle.stat();
      return { stream: createReadStream('', { fd: handle, autoClose: true }), size, contentType: contentTypeOfKey(key) };
    },

    async *list() {
      let entries;
      try {
        entries = await fs.readdir(uploadsRoot, { recursive: true, withFileTypes: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw error;
      }
      const keys = entries
        .filter((entry) => entry.isFile() && !entry.name.endsWith('.partial'))
        .map((entry) => path.relative(uploadsRoot, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
        .sort();
      yield* keys;
    },

    async delete(key) {
      await fs.rm(pathOf(key), { force: true });
    },

    async deletePrefix(prefix) {
      if (!prefix.endsWith('/')) throw new Error(`A storage prefix ends with '/' (got ${JSON.stringify(prefix)})`);
      await fs.rm(pathOf(prefix.slice(0, -1)), { recursive: true, force: true });
    },
  };
}
