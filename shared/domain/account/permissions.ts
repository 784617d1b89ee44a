// What an account of role `user` may do (an admin may do everything).

export const PERMISSION_FLAGS = [
  'canCreateProjects', 'canCreateServices', 'canDeleteProjects', 'canDeleteServices',
  'canAccessToProxyFiles', 'canAccessToContainer', 'canAccessToAPI',
] as const;

export type PermissionFlag = (typeof PERMISSION_FLAGS)[number];

export type Permissions = Record<PermissionFlag, boolean> & {
  accesedProjects: string[];
  accesedServices: string[];
};

export const NO_PERMISSIONS: Permissions = {
  canCreateProjects: false, canCreateServices: false, canDeleteProjects: false, canDeleteServices: false,
  canAccessToProxyFiles: false, canAccessToContainer: false, canAccessToAPI: false,
  accesedProjects: [], accesedServices: [],
};
