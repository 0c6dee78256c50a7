/**
 * A file the import cannot read: too big, the wrong kind, truncated, not what it claims to be. Its message
 * starts with what was being read (`backup: …`, `bookmarks file: …`) and says what is wrong. Nothing has been
 * written when one is thrown.
 */
import { AppError } from '../../shared/errors'

export class ImportError extends AppError {
  constructor(message: string) {
    super('invalid', message)
  }
}
