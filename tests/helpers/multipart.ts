import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";

export interface FilePart {
  field?: string;
  name: string;
  type: string;
  bytes: Buffer;
}

/** A multipart/form-data body as a browser's FormData would send it, for app.inject. */
export async function multipartBody(fields: Record<string, string | number>, file?: FilePart) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
  if (file) {
    form.append(
      file.field ?? "image",
      new Blob([new Uint8Array(file.bytes)], { type: file.type }),
      file.name,
    );
  }
  const request = new Request("http://localhost/", { method: "POST", body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { "content-type": request.headers.get("content-type")! },
  };
}

/** A small real PNG. */
export function pngImage(width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 47, g: 107, b: 79 } } })
    .png()
    .toBuffer();
}

/** Files under mediaDir/<folder> (none when the folder does not exist yet). */
export function mediaFiles(mediaDir: string, folder: string): string[] {
  const dir = path.join(mediaDir, folder);
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
}
