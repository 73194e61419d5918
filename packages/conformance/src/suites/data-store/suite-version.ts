/** Version of the data-store suite; it follows the DataStore contract version (v1.0). */
export const DATA_STORE_SUITE_VERSION = '1.0.0';
