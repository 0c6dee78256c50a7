/** The built-in Site families' keys: a closed list, kept with each family's descriptor in src/shared/site-families.ts. */
export { FAMILY_KEYS, type FamilyKey } from '../../../shared/site-families'
