import { RelayError } from '../errors.js';

/** Base class of every error `parseDescriptor` and `createDescriptor` throw. */
export abstract class DescriptorError extends RelayError {}

/** The descriptor text is not JSON that Python's `json.loads` reads. */
export class DescriptorJsonError extends DescriptorError {
  override readonly name = 'DescriptorJsonError';
  readonly code = 'descriptor_invalid_json';
}

/** The descriptor is valid JSON but not an object (the gateway fails with `AttributeError`). */
export class DescriptorNotObjectError extends DescriptorError {
  override readonly name = 'DescriptorNotObjectError';
  readonly code = 'descriptor_not_object';
}

/** Required fields are absent (the gateway fails with `TypeError` and its read loop ends). */
export class DescriptorMissingFieldsError extends DescriptorError {
  override readonly name = 'DescriptorMissingFieldsError';
  readonly code = 'descriptor_missing_fields';
  /** The missing field names, in the order the gateway declares them. */
  readonly missing: readonly string[];

  constructor(missing: readonly string[]) {
    super(`descriptor is missing required field(s): ${missing.join(', ')}`, missing[0] ?? '');
    this.missing = missing;
  }
}

/** `max_message_length` is an infinite number (Python's `int()` raises `OverflowError`, uncaught). */
export class DescriptorOverflowError extends DescriptorError {
  override readonly name = 'DescriptorOverflowError';
  readonly code = 'descriptor_max_message_length_overflow';
}

/** A value cannot be carried as JSON (a function, `undefined` in an array, a bigint, a class instance, a cycle). */
export class DescriptorNotJsonError extends DescriptorError {
  override readonly name = 'DescriptorNotJsonError';
  readonly code = 'descriptor_not_json';
}

/** `createDescriptor` refused a field the gateway would misread or choke on. */
export class DescriptorFieldError extends DescriptorError {
  override readonly name = 'DescriptorFieldError';
  readonly code = 'descriptor_invalid_field';
}
