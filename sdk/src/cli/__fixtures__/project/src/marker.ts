import { Element, z } from "ds-element";

export default class Marker extends Element.define({
  name: "marker",
  longName: "Marker",
  klass: "Filter/Video",
  description: "Marks frames",
  author: "Jane Doe <jane@example.com>",
  caps: { sink: "video/x-raw", src: "video/x-raw" },
  properties: z.object({ labels: z.array(z.string()).default(["a"]).describe("Labels") }),
}) {}
