import { presentForumList } from "../../core/forums/presenter.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";
import { ForumsResponse } from "../../core/forums/responses.ts";

export const forumsApi: ApiModule = async (app, { services }) => {
  apiRoute(app, {
    method: "GET",
    url: "/forums",
    tag: "Forums",
    summary: "The forums (froum_list): title, post count, detail and type (g educators, d deals)",
    response: ForumsResponse,
    cacheSeconds: 60,
    handler: async () => presentForumList(await services.forums.list()),
  });
};
