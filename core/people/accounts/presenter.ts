/** The account fields the sign-in, sign-up and verify calls answer with: never a password hash. */
export function presentAccount(
  user: { id: number; name: string; email: string; email_verified_at: Date | null },
  token?: string,
) {
  return {
    user_id: user.id,
    name: user.name,
    email: user.email,
    email_verified: user.email_verified_at !== null,
    ...(token ? { token } : {}),
  };
}

export type AccountResponse = ReturnType<typeof presentAccount>;
