// Encodes the few ONNX protobuf messages a hand-built graph needs (ModelProto, GraphProto,
// NodeProto, AttributeProto, TensorProto, ValueInfoProto) straight to bytes. Writing the wire
// format ourselves keeps the generator free of a protobuf runtime and makes its output
// byte-for-byte reproducible: fields are always written in field-number order, tensors always
// as little-endian raw_data, and nothing depends on map iteration or the clock.
// Field numbers are those of onnx/onnx.proto3 (IR version 8).

/** @internal TensorProto.DataType values used here. */
export const DataType = Object.freeze({ FLOAT: 1, INT64: 7 } as const);

/** AttributeProto.AttributeType values used here. */
const AttributeType = Object.freeze({ FLOAT: 1, INT: 2, INTS: 7 } as const);

const WIRE_VARINT = 0;
const WIRE_LENGTH_DELIMITED = 2;
const WIRE_FIXED32 = 5;

const utf8 = new TextEncoder();

/** A varint of a (possibly negative) 64-bit integer, two's complement as protobuf wants. */
function varint(value: number | bigint): Uint8Array {
  let remaining = BigInt.asUintN(64, BigInt(value));
  const bytes: number[] = [];
  do {
    let byte = Number(remaining & 0x7fn);
    remaining >>= 7n;
    if (remaining !== 0n) byte |= 0x80;
    bytes.push(byte);
  } while (remaining !== 0n);
  return Uint8Array.from(bytes);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function key(field: number, wire: number): Uint8Array {
  return varint((field << 3) | wire);
}

function integerField(field: number, value: number): Uint8Array {
  return concat([key(field, WIRE_VARINT), varint(value)]);
}

function bytesField(field: number, bytes: Uint8Array): Uint8Array {
  return concat([key(field, WIRE_LENGTH_DELIMITED), varint(bytes.length), bytes]);
}

function stringField(field: number, text: string): Uint8Array {
  return bytesField(field, utf8.encode(text));
}

function floatField(field: number, value: number): Uint8Array {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setFloat32(0, value, true);
  return concat([key(field, WIRE_FIXED32), bytes]);
}

function packedIntegers(field: number, values: readonly number[]): Uint8Array {
  return bytesField(field, concat(values.map(varint)));
}

/** @internal A tensor's name, type, dims and values (row-major). */
export interface TensorSpec {
  name: string;
  dataType: number;
  dims: readonly number[];
  values: readonly number[];
}

/** @internal An attribute value: the property that is set picks the attribute type. */
export interface AttributeValue {
  int?: number;
  float?: number;
  ints?: readonly number[];
}

/** @internal A TensorProto with its values as little-endian raw_data. */
export function encodeTensor({ name, dataType, dims, values }: TensorSpec): Uint8Array {
  const count = dims.reduce((product, dim) => product * dim, 1);
  if (values.length !== count) {
    throw new Error(`Expected ${count} values for tensor ${name} but received ${values.length}`);
  }
  let raw: Uint8Array;
  if (dataType === DataType.FLOAT) {
    raw = new Uint8Array(4 * count);
    const view = new DataView(raw.buffer);
    values.forEach((value, index) => view.setFloat32(4 * index, value, true));
  } else if (dataType === DataType.INT64) {
    raw = new Uint8Array(8 * count);
    const view = new DataView(raw.buffer);
    values.forEach((value, index) => view.setBigInt64(8 * index, BigInt(value), true));
  } else {
    throw new Error(`Expected FLOAT or INT64 for data type of tensor ${name} but received ${dataType}`);
  }
  return concat([
    ...(dims.length > 0 ? [packedIntegers(1, dims)] : []),
    integerField(2, dataType),
    stringField(8, name),
    bytesField(9, raw),
  ]);
}

/** An AttributeProto; the value's property picks the attribute type (integer, float or integer list). */
function encodeAttribute(name: string, value: AttributeValue): Uint8Array {
  if (value.int !== undefined) {
    return concat([stringField(1, name), integerField(3, value.int), integerField(20, AttributeType.INT)]);
  }
  if (value.float !== undefined) {
    return concat([stringField(1, name), floatField(2, value.float), integerField(20, AttributeType.FLOAT)]);
  }
  if (value.ints !== undefined) {
    return concat([stringField(1, name), packedIntegers(8, value.ints), integerField(20, AttributeType.INTS)]);
  }
  throw new Error(`Expected int, float or ints for attribute ${name} but received ${JSON.stringify(value)}`);
}

/** @internal A node of the default (ai.onnx) domain. */
export interface NodeSpec {
  name: string;
  opType: string;
  inputs: readonly string[];
  outputs: readonly string[];
  attributes?: Record<string, AttributeValue>;
}

/** @internal A NodeProto of the default (ai.onnx) domain. */
export function encodeNode({ name, opType, inputs, outputs, attributes = {} }: NodeSpec): Uint8Array {
  return concat([
    ...inputs.map((input) => stringField(1, input)),
    ...outputs.map((output) => stringField(2, output)),
    stringField(3, name),
    stringField(4, opType),
    ...Object.entries(attributes).map(([attributeName, value]) => bytesField(5, encodeAttribute(attributeName, value))),
  ]);
}

/** @internal A graph input or output; a string dimension is symbolic (dim_param). */
export interface ValueInfoSpec {
  name: string;
  dataType: number;
  dims: readonly (number | string)[];
  docString?: string;
}

/** @internal A ValueInfoProto for a tensor. */
export function encodeValueInfo({ name, dataType, dims, docString }: ValueInfoSpec): Uint8Array {
  const shape = concat(
    dims.map((dim) => bytesField(1, typeof dim === "string" ? stringField(2, dim) : integerField(1, dim))),
  );
  const tensorType = concat([integerField(1, dataType), bytesField(2, shape)]);
  return concat([
    stringField(1, name),
    bytesField(2, bytesField(1, tensorType)),
    ...(docString ? [stringField(3, docString)] : []),
  ]);
}

/** @internal A graph from already-encoded parts. */
export interface GraphSpec {
  name: string;
  nodes: readonly Uint8Array[];
  initializers: readonly Uint8Array[];
  inputs: readonly Uint8Array[];
  outputs: readonly Uint8Array[];
  docString?: string;
}

/** @internal A GraphProto from already-encoded parts. */
export function encodeGraph({ name, nodes, initializers, inputs, outputs, docString }: GraphSpec): Uint8Array {
  return concat([
    ...nodes.map((node) => bytesField(1, node)),
    stringField(2, name),
    ...initializers.map((tensor) => bytesField(5, tensor)),
    ...(docString ? [stringField(10, docString)] : []),
    ...inputs.map((input) => bytesField(11, input)),
    ...outputs.map((output) => bytesField(12, output)),
  ]);
}

/** @internal A model around one encoded graph. */
export interface ModelSpec {
  irVersion: number;
  opsetVersion: number;
  producerName: string;
  producerVersion: string;
  modelVersion: number;
  docString: string;
  graph: Uint8Array;
  metadata: readonly (readonly [string, string])[];
}

/** @internal A ModelProto importing one opset of the default domain. */
export function encodeModel({ irVersion, opsetVersion, producerName, producerVersion, modelVersion, docString, graph, metadata }: ModelSpec): Uint8Array {
  return concat([
    integerField(1, irVersion),
    stringField(2, producerName),
    stringField(3, producerVersion),
    integerField(5, modelVersion),
    stringField(6, docString),
    bytesField(7, graph),
    bytesField(8, concat([stringField(1, ""), integerField(2, opsetVersion)])),
    ...metadata.map(([metadataKey, value]) => bytesField(14, concat([stringField(1, metadataKey), stringField(2, value)]))),
  ]);
}
