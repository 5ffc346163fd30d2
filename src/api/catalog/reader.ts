/**
 * The API's catalog reader: the grant-scoped read module of catalog/ (one storage read path),
 * under the names the loaders and resolvers use. A `CatalogReader` is built per request with
 * the caller's GrantScope as its SQL scope.
 */
export {
  CatalogReader,
  containsPattern,
  type ColumnFilterInputLike,
  type ColumnRow,
  type JoinNeighbourRow,
  type SqlScope,
  type TableFilterInputLike,
  type TableRow,
  type UnionNeighbourRow,
} from '../../catalog/scopedReader.js';
