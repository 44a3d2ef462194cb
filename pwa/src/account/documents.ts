/** The account pages' GraphQL documents (checked against schema.graphql by documents.test.ts). */
import type {
  MyAccountQuery, MyAccountQueryVariables, SetEmailMutation, SetEmailMutationVariables, VerifyEmailMutation,
  VerifyEmailMutationVariables, RequestPasswordResetMutation, RequestPasswordResetMutationVariables,
  ResetPasswordMutation, ResetPasswordMutationVariables,
} from "../api/generated/types";
import type { Document } from "../api/documents";
import type { ErrorResult } from "../api/types";

const doc = <TData, TVariables = Record<string, never>>(source: string) => source as Document<TData, TVariables>;

const ERROR_FIELDS = "__typename ... on Error { code message } ... on InputError { fields { field message } }";

export interface AccountEmail {
  username: string;
  email: string | null;
  emailVerified: boolean;
}

export const MY_ACCOUNT = doc<MyAccountQuery, MyAccountQueryVariables>(`query MyAccount { me { username email emailVerified } }`);

export type SetEmailResult =
  | { __typename: "EmailSet"; verificationSent: boolean; user: { email: string | null; emailVerified: boolean } }
  | ErrorResult;

export const SET_EMAIL = doc<SetEmailMutation, SetEmailMutationVariables>(
  `mutation SetEmail($email: String) { setEmail(input: {email: $email}) { ${ERROR_FIELDS}
    ... on EmailSet { verificationSent user { email emailVerified } } } }`,
);

export type VerifyEmailResult = { __typename: "EmailVerified"; email: string } | ErrorResult;

export const VERIFY_EMAIL = doc<VerifyEmailMutation, VerifyEmailMutationVariables>(
  `mutation VerifyEmail($token: String!) { verifyEmail(input: {token: $token}) { ${ERROR_FIELDS}
    ... on EmailVerified { email } } }`,
);

export type RequestResetResult = { __typename: "PasswordResetRequested"; message: string; byAdmin: boolean } | ErrorResult;

export const REQUEST_RESET = doc<RequestPasswordResetMutation, RequestPasswordResetMutationVariables>(
  `mutation RequestPasswordReset($who: String!) { requestPasswordReset(input: {usernameOrEmail: $who}) { ${ERROR_FIELDS}
    ... on PasswordResetRequested { message byAdmin } } }`,
);

export type ResetPasswordResult = { __typename: "PasswordResetDone"; username: string } | ErrorResult;

export const RESET_PASSWORD = doc<ResetPasswordMutation, ResetPasswordMutationVariables>(
  `mutation ResetPassword($token: String!, $password: String!) {
    resetPassword(input: {token: $token, newPassword: $password}) { ${ERROR_FIELDS} ... on PasswordResetDone { username } } }`,
);

export const ACCOUNT_DOCUMENTS = { MY_ACCOUNT, SET_EMAIL, VERIFY_EMAIL, REQUEST_RESET, RESET_PASSWORD };
