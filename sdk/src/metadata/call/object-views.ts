/**
 * Live views over one object's members: `obj.rectParams.left = 5`, `obj.rectParams.borderColor.red
 * = 1`, `obj.textParams.font.size = 12` write the object, after the same checks as the
 * object's own setters. Each is a StructView made from the table's descriptors (value-fields.ts):
 * row members (rectParams, the boxes) read and write the call's object table, text members the
 * object's JS-side text params. Each view is made once per object, on first use.
 *
 * @internal
 */
import { OBJ_RECT_PARAMS } from "../../protocol/transform-state.js";
import { BBOX_COORDS_FIELDS, RECT_PARAMS_FIELDS, TEXT_PARAMS_FIELDS } from "../../protocol/value-fields.js";
import type { ObjectCore } from "./object-core.js";
import { defineViewFields, ObjectStore, RowStore, StructView } from "./value-fields.js";
import type { Box, RectParams, TextParams } from "../values.js";

/** `obj.rectParams`: a live view over the object's row, one accessor per member of RECT_PARAMS_FIELDS. */
export class ObjectRectParams extends StructView {
  constructor(core: ObjectCore) {
    super(core, new RowStore(core, OBJ_RECT_PARAMS), "rectParams", RECT_PARAMS_FIELDS);
  }

  static {
    defineViewFields(ObjectRectParams, RECT_PARAMS_FIELDS);
  }
}
// The members defineViewFields gives it.
export interface ObjectRectParams extends RectParams {}

/** `obj.detectorBboxInfo`, `obj.trackerBboxInfo`: a live view over a box in the object's row. */
export class ObjectBox extends StructView {
  constructor(core: ObjectCore, offset: number, path: string) {
    super(core, new RowStore(core, offset), path, BBOX_COORDS_FIELDS);
  }

  static {
    defineViewFields(ObjectBox, BBOX_COORDS_FIELDS);
  }
}
// The members defineViewFields gives it.
export interface ObjectBox extends Box {}

/**
 * `obj.textParams`: a live view over the object's text params (held on the JS side and sent
 * whole when changed), one accessor per member of TEXT_PARAMS_FIELDS; its font and colours
 * are nested views.
 */
export class ObjectTextParams extends StructView {
  constructor(core: ObjectCore) {
    super(core, new ObjectStore(core, (owner) => owner.textStore() as unknown as Record<string, unknown>), "textParams", TEXT_PARAMS_FIELDS);
  }

  static {
    defineViewFields(ObjectTextParams, TEXT_PARAMS_FIELDS);
  }
}
// The members defineViewFields gives it.
export interface ObjectTextParams extends TextParams {}
