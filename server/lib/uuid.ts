const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether an id from a URL can be a row's uuid: anything else is "not found" without asking the database (which would refuse the cast). */
export function isUuid(value: string): boolean {
  return uuidPattern.test(value);
}
