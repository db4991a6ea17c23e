// dsosd draws what osdscene wrote (test/fixtures/elements/src/osdscene.ts)
// at the right pixels on each packed format (and on NV12 and I420, through videoconvert), every display element past the 16 of one DeepStream
// display meta, 10 000 labelled objects without error, refuses bad sizes naming the field, and
// draws only what its display-* properties ask for. The frames come out of a real pipeline
// (filesink of the raw frame), through the backend of this build (portable, or NvDsBatchMeta
// under `npm run test:deepstream`).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { launch, scratchDir, type GstRun } from "./helpers/gst";
import { builtinDist, fixturesDist } from "./helpers/projects";

const WIDTH = 320;
const HEIGHT = 240;
type Format = "RGB" | "RGBA" | "BGR" | "BGRx";
type Rgb = [number, number, number];

const BLACK: Rgb = [0, 0, 0];
const RED: Rgb = [255, 0, 0];
const GREEN: Rgb = [0, 255, 0];
const BLUE: Rgb = [0, 0, 255];
const YELLOW: Rgb = [255, 255, 0];
const CYAN: Rgb = [0, 255, 255];
const MAGENTA: Rgb = [255, 0, 255];
const ORANGE: Rgb = [255, 128, 0];

/** One raw frame as filesink wrote it (rows of WIDTH × channels bytes: no padding at these sizes). */
class Frame {
  readonly channels: number;
  constructor(
    readonly bytes: Buffer,
    readonly format: Format,
  ) {
    this.channels = format.length === 3 ? 3 : 4;
    expect(bytes.length).toBe(WIDTH * HEIGHT * this.channels);
  }

  at(x: number, y: number): Rgb {
    const i = (y * WIDTH + x) * this.channels;
    const [a, b, c] = [this.bytes[i]!, this.bytes[i + 1]!, this.bytes[i + 2]!];
    return this.format.startsWith("BGR") ? [c, b, a] : [a, b, c];
  }

  /** Pixels of [x0, x1) × [y0, y1) for which `test` holds. */
  count(x0: number, y0: number, x1: number, y1: number, test: (rgb: Rgb) => boolean): number {
    let n = 0;
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (test(this.at(x, y))) n++;
    return n;
  }
}

function drawScene(format: Format, mode: string, dsosd = "dsosd"): { run: GstRun; frame: Frame | undefined } {
  const raw = join(scratchDir(`dsosd-${format}-${mode}`), "frame.raw");
  const run = launch(
    `videotestsrc pattern=black num-buffers=1 ! video/x-raw,format=${format},width=${WIDTH},height=${HEIGHT} ! ` +
      `osdscene mode=${mode} ! ${dsosd} ! filesink location=${raw}`,
    { dists: [fixturesDist, builtinDist], env: { GST_DEBUG: "dsosd:4" } },
  );
  return { run, frame: run.code === 0 ? new Frame(readFileSync(raw), format) : undefined };
}

const isWhiteish = ([r, g, b]: Rgb) => r > 200 && g > 200 && b > 200;
const isYellowish = ([r, g, b]: Rgb) => r > 200 && g > 200 && b < 80;

describe.each<Format>(["RGB", "RGBA", "BGR", "BGRx"])("dsosd on %s", (format) => {
  const { run, frame } = drawScene(format, "shapes");
  const f = () => frame!;

  it("runs without error and says what it drew", () => {
    expect(run.code, run.output).toBe(0);
    // Boxes: the bordered one and the filled one; the masked object has neither.
    expect(run.output).toContain("drew on 1 frame(s): 2 boxes, 1 labels, 1 masks; display metas: 20 rects, 1 texts, 1 lines, 1 arrows, 2 circles");
  });

  it("draws an object's 3 px border centred on the box's edge pixels, and nothing inside", () => {
    // rectParams left 20, top 30, width 60, height 40: edge columns 20 and 79, rows 30 and 69.
    for (let x = 19; x <= 80; x++) {
      expect(f().at(x, 29), `top band at x ${x}`).toEqual(RED);
      expect(f().at(x, 70), `bottom band at x ${x}`).toEqual(RED);
    }
    for (let y = 29; y <= 70; y++) {
      expect(f().at(19, y), `left band at y ${y}`).toEqual(RED);
      expect(f().at(21, y), `left band at y ${y}`).toEqual(RED);
      expect(f().at(80, y), `right band at y ${y}`).toEqual(RED);
    }
    expect(f().at(18, 50)).toEqual(BLACK);
    expect(f().at(81, 50)).toEqual(BLACK);
    expect(f().at(50, 28)).toEqual(BLACK);
    expect(f().at(50, 71)).toEqual(BLACK);
    expect(f().count(22, 32, 78, 68, (rgb) => rgb.some((c) => c !== 0))).toBe(0);
  });

  it("fills a box with hasBgColor: every pixel of it, none around it", () => {
    // left 120, top 30, width 50, height 30
    expect(f().count(120, 30, 170, 60, (rgb) => rgb.join() === GREEN.join())).toBe(50 * 30);
    expect(f().at(119, 45)).toEqual(BLACK);
    expect(f().at(170, 45)).toEqual(BLACK);
    expect(f().at(145, 60)).toEqual(BLACK);
  });

  it("draws the label at xOffset/yOffset: white glyphs on its blue background", () => {
    // "car 7", Sans 12 pt (16 px), at (120, 80) on blue.
    expect(f().at(120, 80)).toEqual(BLUE);
    expect(f().at(119, 85)).toEqual(BLACK);
    expect(f().at(120, 79)).toEqual(BLACK);
    const glyphs = f().count(120, 80, 170, 100, isWhiteish);
    expect(glyphs).toBeGreaterThan(40);
    expect(f().count(120, 80, 160, 95, (rgb) => rgb.join() === BLUE.join())).toBeGreaterThan(200);
  });

  it("draws all 20 rects of a display meta (two DeepStream display metas of 16 and 4)", () => {
    for (let i = 0; i < 20; i++) {
      const x = 10 + 15 * i;
      expect(f().count(x, 200, x + 8, 208, (rgb) => rgb.join() === YELLOW.join()), `rect ${i}`).toBe(64);
      expect(f().at(x + 8, 204), `right of rect ${i}`).toEqual(BLACK);
    }
  });

  it("draws a 3 px line along its centre, butt-ended", () => {
    // (10, 150) to (150, 150): rows 149 and 150 fully covered, 148 and 151 half.
    for (const x of [12, 80, 148]) {
      expect(f().at(x, 149)).toEqual(CYAN);
      expect(f().at(x, 150)).toEqual(CYAN);
      expect(f().at(x, 146)).toEqual(BLACK);
      expect(f().at(x, 153)).toEqual(BLACK);
    }
    expect(f().at(8, 150)).toEqual(BLACK);
    expect(f().at(152, 150)).toEqual(BLACK);
  });

  it("draws an arrow's shaft and its head at the end", () => {
    // (200, 120) to (300, 120), width 3: head 10 px long, 12 px wide at its base (x 290).
    expect(f().at(250, 119)).toEqual(MAGENTA);
    expect(f().at(250, 117)).toEqual(BLACK);
    expect(f().at(292, 117)).toEqual(MAGENTA);
    expect(f().at(292, 123)).toEqual(MAGENTA);
    expect(f().at(303, 120)).toEqual(BLACK);
    expect(f().at(198, 120)).toEqual(BLACK);
  });

  it("draws a circle's outline at its radius and fills a circle with hasBgColor", () => {
    // Outline: centre (260, 60), radius 25, width 2 (anti-aliased).
    for (const [x, y] of [[260, 35], [285, 60], [260, 84], [235, 60]] as const) expect(isWhiteish(f().at(x, y)), `(${x}, ${y})`).toBe(true);
    expect(f().at(260, 60)).toEqual(BLACK);
    expect(f().at(260, 30)).toEqual(BLACK);
    // Filled: centre (200, 180), radius 10, orange.
    expect(f().at(200, 180)).toEqual(ORANGE);
    expect(f().at(205, 176)).toEqual(ORANGE);
    expect(f().at(200, 193)).toEqual(BLACK);
  });

  it("draws a mask over its box: cells above the threshold in the border colour at half alpha", () => {
    // Box (250, 160) 40x40, mask 2x2 [1, 0; 0, 1], threshold 0.5, border colour white.
    const half: Rgb = [128, 128, 128];
    expect(f().count(250, 160, 270, 180, (rgb) => rgb.join() === half.join())).toBe(400);
    expect(f().count(270, 180, 290, 200, (rgb) => rgb.join() === half.join())).toBe(400);
    expect(f().count(270, 160, 290, 180, (rgb) => rgb.some((c) => c !== 0))).toBe(0);
    expect(f().count(250, 180, 270, 200, (rgb) => rgb.some((c) => c !== 0))).toBe(0);
    expect(f().at(249, 170)).toEqual(BLACK);
  });

  it("draws a display text in its colour, without background", () => {
    expect(f().count(200, 5, 240, 20, isYellowish)).toBeGreaterThan(15);
    expect(f().at(200, 5)).toEqual(BLACK);
  });
});

// Planar YUV, as nvstreammux and decoders give it (and nvdsosd draws on NV12): the scene drawn
// on the NV12/I420 frame, then converted to RGB by videoconvert, against the same scene drawn on
// RGB. Pixels away from the edges of what was drawn (chroma is shared by 2x2 pixels, and
// videoconvert interpolates it) must be the RGB picture's colours, within conversion rounding.
describe.each(["NV12", "I420"])("dsosd on %s", (format) => {
  const converted = (mode: string) => {
    const raw = join(scratchDir(`dsosd-${format}-${mode}`), "frame.raw");
    const run = launch(
      `videotestsrc pattern=black num-buffers=1 ! video/x-raw,format=${format},width=${WIDTH},height=${HEIGHT},colorimetry=bt601 ! ` +
        `osdscene mode=${mode} ! dsosd ! videoconvert ! video/x-raw,format=RGB ! filesink location=${raw}`,
      { dists: [fixturesDist, builtinDist], env: { GST_DEBUG: "dsosd:4" } },
    );
    return { run, frame: run.code === 0 ? new Frame(readFileSync(raw), "RGB") : undefined };
  };
  const { run, frame } = converted("shapes");
  const near = (want: Rgb) => (rgb: Rgb) => rgb.every((c, i) => Math.abs(c - want[i]!) <= 8);

  it("draws what it draws on RGB", () => {
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain("drew on 1 frame(s): 2 boxes, 1 labels, 1 masks; display metas: 20 rects, 1 texts, 1 lines, 1 arrows, 2 circles");
  });

  it("gives the same colours where the RGB picture has them", () => {
    const f = frame!;
    // The green box's inside, the label's blue, black around; the 3 px red border (its chroma
    // shared with the black beside it) reddish.
    expect(f.count(122, 32, 168, 58, near(GREEN))).toBe(46 * 26);
    expect(f.count(20, 32, 21, 68, ([r, g, b]) => r > 150 && g < 80 && b < 80)).toBe(36);
    expect(f.count(40, 40, 60, 60, near(BLACK))).toBe(400);
    expect(f.at(121, 81)).toSatisfy(near(BLUE));
    expect(f.count(120, 80, 170, 100, isWhiteish)).toBeGreaterThan(40);
    // The yellow display text: thin glyphs share their chroma with the black around them, so
    // their luma is what is checked (bright red and green, little blue).
    expect(f.count(200, 5, 240, 20, ([r, g, b]) => r + g > 300 && b < r && b < g)).toBeGreaterThan(15);
  });
});

describe("dsosd's display-* properties", () => {
  it("display-mask=false leaves masks out", () => {
    const { frame } = drawScene("RGB", "shapes", "dsosd display-mask=false");
    expect(frame!.count(250, 160, 290, 200, (rgb) => rgb.some((c) => c !== 0))).toBe(0);
    expect(frame!.at(20, 50)).toEqual(RED);
  });

  it("display-bbox=false leaves boxes out", () => {
    const { run, frame } = drawScene("RGB", "shapes", "dsosd display-bbox=false");
    expect(run.code, run.output).toBe(0);
    expect(frame!.at(20, 50)).toEqual(BLACK);
    expect(frame!.at(145, 45)).toEqual(BLACK);
    expect(frame!.at(120, 80)).toEqual(BLUE); // the label stays
  });

  it("display-text=false leaves the objects' labels out, display texts stay", () => {
    const { frame } = drawScene("RGB", "shapes", "dsosd display-text=false");
    expect(frame!.count(120, 80, 170, 100, (rgb) => rgb.some((c) => c !== 0))).toBe(0);
    expect(frame!.count(200, 5, 240, 20, isYellowish)).toBeGreaterThan(15);
  });

  it("display-meta=false leaves every display meta element out", () => {
    const { frame } = drawScene("RGB", "shapes", "dsosd display-meta=false");
    const drawn = (x0: number, y0: number, x1: number, y1: number) => frame!.count(x0, y0, x1, y1, (rgb) => rgb.some((c) => c !== 0));
    expect(drawn(0, 140, 160, 160)).toBe(0); // line
    expect(drawn(190, 110, 310, 130)).toBe(0); // arrow
    expect(drawn(0, 200, 245, 208) + drawn(295, 200, WIDTH, 208)).toBe(0); // 20 rects (the mask is over the others)
    expect(drawn(185, 165, 215, 195)).toBe(0); // filled circle
    expect(drawn(230, 30, 290, 90)).toBe(0); // circle outline
    expect(drawn(200, 0, 240, 25)).toBe(0); // text
    expect(frame!.at(20, 50)).toEqual(RED);
  });
});

describe("dsosd draws a detector's objects as nvinfer writes them (every default left as it is)", () => {
  it("each label above its box, white glyphs on black, and the 3 px red border", () => {
    // test/fixtures/elements/src/detections.ts: "car" (classifier "red" appended) at (40, 60)
    // 80x50, "person" at (200, 5), "dog" one by one at (120, 150); labels at (left, top - 10).
    const raw = join(scratchDir("dsosd-detections"), "frame.raw");
    const run = launch(
      `videotestsrc pattern=black num-buffers=1 ! video/x-raw,format=RGB,width=${WIDTH},height=${HEIGHT} ! detections ! dsosd ! filesink location=${raw}`,
      { dists: [fixturesDist, builtinDist], env: { GST_DEBUG: "dsosd:4" } },
    );
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain("drew on 1 frame(s): 3 boxes, 3 labels");
    const frame = new Frame(readFileSync(raw), "RGB");
    expect(frame.at(115, 60)).toEqual(RED); // the car's top edge, right of its label
    for (const [x, y, what] of [[40, 50, "car red"], [200, 0, "person"], [120, 140, "dog"]] as const) {
      expect(frame.count(x, y, x + 40, y + 9, isWhiteish), what).toBeGreaterThan(15);
    }
  });
});

describe("dsosd with 10 000 labelled objects on a frame", () => {
  it("draws every box and label without error", () => {
    const { run, frame } = drawScene("BGRx", "many");
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain("drew on 1 frame(s): 10000 boxes, 10000 labels");
    expect(frame!.count(0, 0, WIDTH, HEIGHT, (rgb) => rgb.join() === GREEN.join())).toBeGreaterThan(1000);
  });
});

describe("dsosd with text larger than any frame", () => {
  it("draws 10 000 W at 256 points and 2 000 lines clipped to the frame (they crashed it)", () => {
    const { run, frame } = drawScene("RGB", "long-text");
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain("drew on 1 frame(s): 0 boxes, 1 labels");
    // The label's W reach the right edge; the display text's lines (from x 300) the bottom one.
    expect(frame!.count(WIDTH - 30, 0, WIDTH - 20, HEIGHT, isWhiteish)).toBeGreaterThan(0);
    expect(frame!.count(300, HEIGHT - 20, WIDTH, HEIGHT, ([r, g, b]) => r > 200 && g < 80 && b < 80)).toBeGreaterThan(0);
  });
});

describe("dsosd refuses values it cannot draw, naming the field", () => {
  it.each([
    ["bad-font", "Expected a font size from 1 to 256 (points) for frameItems[0].objectItems[0].textParams.font.size but received 0"],
    ["bad-width", "Expected a width from 0 to 1024 px for frameItems[0].objectItems[0].rectParams.borderWidth but received 5000"],
    ["bad-line", "Expected a coordinate from 0 to 32767 px for frameItems[0].displayMetaItems[0].lines[0].x2 but received 40000"],
  ])("%s", (mode, message) => {
    const { run } = drawScene("RGB", mode);
    expect(run.code).not.toBe(0);
    expect(run.output).toContain(`dsosd0: ${message}`);
  });
});
